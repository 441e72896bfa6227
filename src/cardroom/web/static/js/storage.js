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
 * @property {string[]} muted         ids of players whose chat lines this player hides
 * @property {Object<string, string>} lastPreset  the preset last played, by game ("500")
 * @property {Object<string, string>} invites     private tables' invite secrets, by table id
 * @property {Object<string, string>} challenges  daily challenge entries' tables: table id → game
 * @property {boolean} spectatorChat  show the spectators' chat line while seated
 * @property {boolean} notifications  a desktop notification when it is your turn in a
 *                                    background tab (if the browser allows them)
 * @property {boolean} fourColour     the four-colour deck: clubs green, diamonds blue
 */

/** @type {Stored} */
const DEFAULTS = Object.freeze({
  name: "",
  token: null,
  cardBack: 0,
  scoreMode: "detailed",
  sound: false,
  created: [],
  muted: [],
  lastPreset: {},
  invites: {},
  challenges: {},
  spectatorChat: false,
  notifications: false,
  fourColour: false,
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
    created: strings(raw.created, 50),
    muted: strings(raw.muted, 200),
    lastPreset: stringMap(raw.lastPreset, 10),
    invites: stringMap(raw.invites, 50),
    challenges: stringMap(raw.challenges, 20),
    spectatorChat: raw.spectatorChat === true,
    notifications: raw.notifications === true,
    fourColour: raw.fourColour === true,
  };
}

/**
 * The last `limit` strings of a stored list (nothing else survives).
 * @param {unknown} raw
 * @param {number} limit
 * @returns {string[]}
 */
function strings(raw, limit) {
  return Array.isArray(raw) ? raw.filter((item) => typeof item === "string").slice(-limit) : [];
}

/**
 * The last `limit` string-to-string entries of a stored object (nothing else survives).
 * @param {unknown} raw
 * @param {number} limit
 * @returns {Object<string, string>}
 */
function stringMap(raw, limit) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
  const entries = Object.entries(raw).filter(([key, value]) => typeof value === "string"
    && key.length <= 64 && value.length <= 64);
  return Object.fromEntries(entries.slice(-limit));
}
