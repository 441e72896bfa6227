/**
 * What the browser remembers between visits, in one localStorage entry.
 *
 * Seed 004 remembers the player's name; we also keep the secret token that holds the
 * player's seats (docs/protocol.md), the display options, and the tables this browser
 * created (the lobby does not say who created a table, and only the creator may seat bots).
 * Storage can be unavailable (private mode, blocked cookies): then everything still works
 * for the visit and is simply forgotten afterwards.
 *
 * @module storage
 */

const KEY = "cardroom.v1";

/**
 * @typedef {object} Stored
 * @property {string} name            last name entered (seed 004 section 1)
 * @property {string|null} token      secret from `register`, sent with `hello`
 * @property {number} cardBack        card back style, 0–4 (drawn by cards.js `backSVG`)
 * @property {"detailed"|"simple"} scoreMode
 * @property {boolean} sound          click when a card is played
 * @property {string[]} created       ids of tables this browser created
 */

/** @type {Stored} */
const DEFAULTS = Object.freeze({
  name: "",
  token: null,
  cardBack: 0,
  scoreMode: "detailed",
  sound: false,
  created: [],
});

/** Kept in memory too, so a browser without storage still remembers within the visit. */
let memory = null;

/**
 * Everything remembered, with defaults for what is missing or malformed.
 * @returns {Stored}
 */
export function load() {
  if (memory === null) {
    memory = { ...DEFAULTS, ...readRaw() };
  }
  return sanitize(memory);
}

/**
 * Merge `patch` into what is remembered and write it back.
 * @param {Partial<Stored>} patch
 * @returns {Stored} the new state
 */
export function save(patch) {
  memory = sanitize({ ...load(), ...patch });
  try {
    localStorage.setItem(KEY, JSON.stringify(memory));
  } catch {
    // Storage full or blocked: keep the in-memory copy for this visit.
  }
  return { ...memory };
}

/** @returns {object} the parsed entry, or {} when absent or unreadable */
function readRaw() {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) || "{}");
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Coerce every field to its type so callers never see a surprise from an old entry.
 * @param {object} raw
 * @returns {Stored}
 */
function sanitize(raw) {
  const cardBack = Number(raw.cardBack);
  return {
    name: typeof raw.name === "string" ? raw.name.slice(0, 24) : "",
    token: typeof raw.token === "string" && raw.token ? raw.token : null,
    cardBack: Number.isInteger(cardBack) && cardBack >= 0 && cardBack <= 4 ? cardBack : 0,
    scoreMode: raw.scoreMode === "simple" ? "simple" : "detailed",
    sound: raw.sound === true,
    created: Array.isArray(raw.created)
      ? raw.created.filter((id) => typeof id === "string").slice(-50)
      : [],
  };
}
