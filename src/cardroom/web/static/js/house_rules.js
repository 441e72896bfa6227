/**
 * The "House rules" part of the New table form.
 *
 * Every option, its allowed values and its explanation come from the server (`/api/rules`,
 * built from the engine's Rules), so the form can never offer an option the engine lacks.
 * The inputs start at the chosen preset's values; only the options changed from the preset
 * are sent, and the server refuses impossible combinations with the reason. Options and
 * their values show the game's words for them (its text module, through the catalogue).
 */
import { el } from "./dom.js";

/** @type {Map<string, Promise<{presets: Object<string, Object>, options: Array<Object>}>>} */
const catalogues = new Map();

/**
 * A game's catalogue (`/api/rules?game=…`; the default game's without `game`), fetched once
 * per page: its title, presets (every option's value, and each one's title, description,
 * seats and sides) and every house option with its label, explanation and step, and the names
 * of every game.
 * @param {string} [game]
 * @returns {Promise<object>}
 */
export function loadCatalogue(game = "") {
  if (!catalogues.has(game)) {
    const query = game ? `?game=${encodeURIComponent(game)}` : "";
    catalogues.set(game, fetch(`/api/rules${query}`).then((answer) => {
      if (!answer.ok) throw new Error(`rules catalogue: HTTP ${answer.status}`);
      return answer.json();
    }));
  }
  return catalogues.get(game);
}

/** Option names that have their own field elsewhere in the form. */
const OWN_FIELDS = new Set(["target"]);

/** An option's name for people: the game's label, else "misere_joker_forced" → "Misere joker forced". */
function label(option) {
  if (option.label && option.label !== option.name) return option.label;
  const words = option.name.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The input for one option: a checkbox, a number or a choice list. */
function inputFor(option) {
  const common = { id: `house-${option.name}`, "data-option": option.name,
    "aria-describedby": `house-${option.name}-help` };
  if (option.kind === "bool") return el("input", { ...common, type: "checkbox" });
  if (option.kind === "int") {
    // The game says the step (scores by tens, counts and bids by ones): a value off the step
    // would block the form.
    return el("input", { ...common, type: "number", step: option.step || 1, inputmode: "numeric",
      placeholder: option.nullable ? "none" : "" });
  }
  // Each value by the game's name for it (the catalogue's `choice_labels`), never its code.
  const names = option.choice_labels || {};
  return el("select", common, ...option.choices.map((value) =>
    el("option", { value, text: names[value] || label({ name: String(value) }) })));
}

/** The value an input holds, typed as the server expects. */
function valueOf(input, option) {
  if (option.kind === "bool") return input.checked;
  if (option.kind === "int") return input.value === "" ? null : Number(input.value);
  return input.value;
}

/** Put a value into an input. */
function show(input, option, value) {
  if (option.kind === "bool") input.checked = Boolean(value);
  else input.value = value === null || value === undefined ? "" : String(value);
}

/**
 * Build the house-rules section for a preset `<select>` (and a game `<select>`: the options
 * are rebuilt for the game chosen).
 * @param {HTMLSelectElement} presetSelect
 * @param {HTMLSelectElement} [gameSelect]
 * @returns {{element: HTMLElement, changes: () => Object}}
 */
export function houseRules(presetSelect, gameSelect) {
  const list = el("div", { class: "house-rules-list" });
  const element = el("details", { class: "house-rules", id: "house-rules" },
    el("summary", { text: "House rules (optional)" }),
    el("p", { class: "muted small", text: "Change anything your table plays differently. "
      + "Impossible combinations are refused with the reason." }),
    list);
  const inputs = new Map();
  let options = [];
  let presets = {};

  const reset = () => {
    const base = presets[presetSelect.value] || {};
    for (const option of options) show(inputs.get(option.name), option, base[option.name]);
  };

  let builds = 0;
  const build = () => {
    const game = gameSelect ? gameSelect.value : "";
    const build = ++builds;
    options = [];
    presets = {};
    inputs.clear();
    list.replaceChildren();
    if (gameSelect && !game) return; // the games are loading: built again when one is chosen
    loadCatalogue(game).then((data) => {
      if (build !== builds) return; // built again meanwhile (the same game or another)
      presets = data.presets;
      options = data.options.filter((option) => !OWN_FIELDS.has(option.name));
      for (const option of options) {
        const input = inputFor(option);
        inputs.set(option.name, input);
        list.append(el("div", { class: `house-option house-${option.kind}` },
          el("label", { for: input.id, text: label(option) }), input,
          el("p", { class: "muted small", id: `${input.id}-help`, text: option.doc })));
      }
      reset();
    }).catch(() => {
      list.append(el("p", { class: "muted small", text: "House rules could not be loaded." }));
    });
  };
  build();
  gameSelect?.addEventListener("change", build);
  presetSelect.addEventListener("change", reset);

  /** The options that differ from the chosen preset. */
  const changes = () => {
    const base = presets[presetSelect.value] || {};
    const changed = {};
    for (const option of options) {
      const value = valueOf(inputs.get(option.name), option);
      if (value !== base[option.name]) changed[option.name] = value;
    }
    return changed;
  };
  return { element, changes };
}
