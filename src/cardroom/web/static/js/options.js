/**
 * The options panel (seed 004 section 4): card back style, score display, sound; and for
 * the chat and the turn's call: the spectators' chat line, desktop notifications.
 *
 * The suits' colours: two (red and black) or the four-colour deck's (clubs green, diamonds
 * blue), shown on `<body data-suit-colours="two|four">`: CSS colours the cards and every suit
 * symbol by it, and each suit keeps its own shape whatever its colour.
 *
 * The choice is remembered (storage.js), shown on `<body data-card-back="N">` for CSS, and
 * announced with a `cardroom:options` event on `window` (detail: the options) so the table
 * can redraw its face-down cards with cards.js `backSVG(style)`. The table may also import
 * {@link playSound} to click when a card is played.
 *
 * @module options
 */

import { save } from "./storage.js";
import { el } from "./dom.js";
import { askForNotifications } from "./attention.js";

/** The five card backs, in the order of cards.js `backSVG(style)`. */
export const CARD_BACKS = ["Classic blue", "Red lattice", "Green felt", "Black gold", "Purple waves"];

/** The options in force; {@link playSound} reads it. */
let current = { cardBack: 0, scoreMode: "detailed", sound: false, spectatorChat: false,
  notifications: false, fourColour: false };

/**
 * @typedef {object} Options
 * @property {number} cardBack 0–4
 * @property {"detailed"|"simple"} scoreMode
 * @property {boolean} sound
 * @property {boolean} spectatorChat show the spectators' chat while seated
 * @property {boolean} notifications a desktop notification when it is your turn (tab hidden)
 * @property {boolean} fourColour the four-colour deck (clubs green, diamonds blue)
 */

/**
 * Build the options form in `root` and keep `options` up to date as the user changes it.
 * @param {HTMLElement} root
 * @param {Options} options the live options object (mutated in place, so holders see changes)
 * @param {(options: Options) => void} [onChange] called after each change
 */
export function renderOptions(root, options, onChange = () => {}) {
  current = options;
  root.replaceChildren(
    field("card-back", "Card style", CARD_BACKS.map((name, i) => [String(i), name]),
      String(options.cardBack)),
    field("suit-colours", "Suit colours",
      [["two", "Two: red and black"], ["four", "Four: clubs green, diamonds blue"]],
      options.fourColour ? "four" : "two"),
    field("score-mode", "Score display", [["detailed", "Detailed"], ["simple", "Simple"]],
      options.scoreMode),
    field("sound", "Sound", [["off", "Off"], ["on", "On"]], options.sound ? "on" : "off"),
    field("spectator-chat", "Spectators' chat", [["off", "Hidden while I play"], ["on", "Shown"]],
      options.spectatorChat ? "on" : "off"),
    field("notifications", "Your turn, tab in the background",
      [["off", "Title and icon"], ["on", "Also a desktop notification"]],
      options.notifications ? "on" : "off"),
  );
  // A property, not addEventListener: rendering again must not add a second handler.
  root.onchange = (event) => {
    const target = /** @type {HTMLSelectElement} */ (event.target);
    if (target.id === "card-back") options.cardBack = Number(target.value);
    else if (target.id === "suit-colours") options.fourColour = target.value === "four";
    else if (target.id === "score-mode") options.scoreMode = target.value === "simple" ? "simple" : "detailed";
    else if (target.id === "sound") {
      options.sound = target.value === "on";
      if (options.sound) playSound("play");
    } else if (target.id === "spectator-chat") options.spectatorChat = target.value === "on";
    else if (target.id === "notifications") {
      options.notifications = target.value === "on";
      if (options.notifications) {
        askForNotifications().then((allowed) => {
          if (allowed) return;
          options.notifications = false;
          target.value = "off";
          save({ notifications: false });
        });
      }
    } else return;
    save({ cardBack: options.cardBack, scoreMode: options.scoreMode, sound: options.sound,
      spectatorChat: options.spectatorChat, notifications: options.notifications,
      fourColour: options.fourColour });
    applyOptions(options);
    onChange(options);
  };
  applyOptions(options);
}

/**
 * Show the options on the page: the card back and the suits' colours on `<body>` and the
 * `cardroom:options` event.
 * @param {Options} options
 */
export function applyOptions(options) {
  current = options;
  document.body.dataset.cardBack = String(options.cardBack);
  document.body.dataset.scoreMode = options.scoreMode;
  document.body.dataset.suitColours = options.fourColour ? "four" : "two";
  window.dispatchEvent(new CustomEvent("cardroom:options", { detail: { ...options } }));
}

/**
 * A labelled select.
 * @param {string} id
 * @param {string} label
 * @param {Array<[string, string]>} choices value and text of each option
 * @param {string} value the selected value
 */
function field(id, label, choices, value) {
  return el("div", { class: "field" },
    el("label", { for: id, text: label }),
    el("select", { id },
      ...choices.map(([optionValue, text]) =>
        el("option", { value: optionValue, text, selected: optionValue === value }))));
}

/** Created on first use: browsers only allow audio after a user gesture anyway. */
let audio = null;

/** Pitch and length of each sound. */
const SOUNDS = {
  play: { frequency: 1400, seconds: 0.05, volume: 0.25 },
  trick: { frequency: 700, seconds: 0.09, volume: 0.2 },
  turn: { frequency: 990, seconds: 0.12, volume: 0.15 },
};

/**
 * A short synthesized click (nothing is downloaded), when sound is on.
 * @param {"play"|"trick"|"turn"} [kind] what happened; a card played by default
 */
export function playSound(kind = "play") {
  if (!current.sound) return;
  const sound = SOUNDS[kind] || SOUNDS.play;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.type = "triangle";
    oscillator.frequency.setValueAtTime(sound.frequency, start);
    oscillator.frequency.exponentialRampToValueAtTime(sound.frequency / 2, start + sound.seconds);
    gain.gain.setValueAtTime(sound.volume, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + sound.seconds);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + sound.seconds);
  } catch {
    // No WebAudio: stay silent.
  }
}
