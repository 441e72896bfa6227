/**
 * What the profile (profile.js) and leaderboard (leaderboard.js) screens share: reading the
 * room's JSON over HTTP, the links above both screens, and their loading and error states.
 *
 * @module players
 */

import { el, leaderboardLinks } from "./dom.js";
import { loadGames } from "./lobby.js";
import { load } from "./storage.js";

/**
 * What the two screens need from the page.
 * @typedef {object} PlayersContext
 * @property {() => ({player_id: string, name: string}|null)} me who plays here
 * @property {() => (string|null)} table the table this tab still follows, to go back to
 */

/**
 * Ask the room for a JSON document, as the player this browser holds the token of (a
 * player's own profile names their private tables' matches; a replay of a private table's
 * match needs it).
 * @param {string} path
 * @param {RequestInit} [init] more of the request (a POST with its body)
 * @returns {Promise<any>} the document; rejects with an Error whose message says what went
 *   wrong (the server's `error` when it gives one)
 */
export async function fetchJSON(path, init = {}) {
  const token = load().token;
  const headers = { Accept: "application/json", ...(init.headers || {}) };
  if (token) headers.Authorization = `Bearer ${token}`;
  let answer;
  try {
    answer = await fetch(path, { ...init, headers });
  } catch {
    throw new Error("The card room could not be reached: check the connection and try again.");
  }
  const body = await answer.json().catch(() => null);
  if (!answer.ok) throw new Error(body?.error || `The card room answered ${answer.status}.`);
  return body;
}

/**
 * The links above a screen: back to the lobby (and to the table this tab still follows), to
 * the daily challenge, to watch a record file, and each game's leaderboard.
 * @param {PlayersContext} ctx
 * @param {string|null} [currentGame] the leaderboard shown, marked as the current page
 * @returns {HTMLElement}
 */
export function screenNav(ctx, currentGame = null) {
  const boards = el("span", { class: "players-boards" });
  loadGames().then((games) => boards.replaceChildren(...leaderboardLinks(games, currentGame)))
    .catch(() => {});
  const table = ctx.table();
  return el("nav", { class: "players-nav", "aria-label": "Back and leaderboards" },
    el("a", { class: "btn btn-small", href: "#lobby", "data-testid": "to-lobby", text: "← Lobby" }),
    table ? el("a", { class: "btn btn-small", href: `#table=${encodeURIComponent(table)}`,
      "data-testid": "to-table", text: "← Back to the table" }) : null,
    el("a", { class: "btn btn-small", href: "#challenge=500", "data-testid": "to-challenge",
      text: "Daily challenge", title: "Today's deals, the same for everybody" }),
    el("a", { class: "btn btn-small", href: "#replay=import", "data-testid": "watch-record",
      text: "Watch a record", title: "Replay a match from its record file" }),
    boards);
}

/**
 * Show a screen's placeholder while its document loads.
 * @param {HTMLElement} root
 * @param {PlayersContext} ctx
 * @param {string} text
 */
export function showLoading(root, ctx, text) {
  root.replaceChildren(screenNav(ctx), el("p", { class: "card muted players-state", role: "status", text }));
}

/**
 * Show why a screen could not be drawn.
 * @param {HTMLElement} root
 * @param {PlayersContext} ctx
 * @param {Error} error
 */
export function showFailure(root, ctx, error) {
  root.replaceChildren(screenNav(ctx),
    el("p", { class: "card players-state players-error", role: "alert", "data-testid": "players-error",
      text: error.message }));
}

/**
 * A number of the table's columns, right-aligned in tabular figures.
 * @param {string|number} value
 * @returns {HTMLElement}
 */
export function numberCell(value) {
  return el("td", { class: "number", text: String(value) });
}

/**
 * A table's header row.
 * @param {string[]} titles
 * @param {number[]} [numeric] the indexes of the columns of numbers
 * @returns {HTMLElement}
 */
export function headerRow(titles, numeric = []) {
  return el("thead", {}, el("tr", {}, ...titles.map((text, n) =>
    el("th", { scope: "col", class: numeric.includes(n) ? "number" : null, text }))));
}
