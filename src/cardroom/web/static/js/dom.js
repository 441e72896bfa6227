/**
 * Small DOM helpers shared by the page's modules (lobby, scores, options, bug report, app),
 * so each builds its elements the same way and never through innerHTML with server text.
 *
 * @module dom
 */

/**
 * Create an element.
 *
 * Attributes: `class`, `text` (textContent), `dataset` (an object), `on` (event name →
 * handler), booleans (`disabled: true` sets it, `false` leaves it out), anything else as an
 * attribute. Children: nodes or strings; null/false are skipped.
 *
 * @param {string} tag
 * @param {object} [attrs]
 * @param {...(Node|string|null|false|undefined)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/** SVG elements need their namespace. */
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Create an SVG element with attributes.
 * @param {string} tag
 * @param {object} [attrs]
 * @param {...Node} children
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  node.append(...children.filter(Boolean));
  return node;
}

/**
 * The name shown for a seat: the player's, a bot's, or a placeholder.
 * @param {{name: string|null, bot: string|null, away?: boolean}|undefined} seat
 * @param {number} number the seat number, for the placeholder
 * @returns {string}
 */
export function seatName(seat, number) {
  if (seat?.name) return seat.name;
  if (seat?.bot) return `Bot ${number + 1}`;
  if (seat?.reserved) return "Kept for a friend";
  return "Empty seat";
}

/**
 * A side's name from its seated players ("Shaun & Alice"), as seed 004's score panel shows;
 * ``fallback`` ("Team Two") while nobody sits on that side.
 * @param {Array<object>} seats the table's seats (SeatInfo)
 * @param {number[]} team the seat numbers of the side
 * @param {string} fallback
 * @returns {string}
 */
export function teamName(seats, team, fallback) {
  const seated = team.filter((n) => seats?.[n]?.name || seats?.[n]?.bot);
  return seated.length ? seated.map((n) => seatName(seats[n], n)).join(" & ") : fallback;
}

/**
 * A count with its noun: "1 rated match", "12 rated matches".
 * @param {number} count
 * @param {string} one the noun for one
 * @param {string} many the noun for any other count
 * @returns {string}
 */
export function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * The address of a player's profile screen (a bot's is `bot:NAME`).
 * @param {string} playerId
 * @returns {string}
 */
export function profileHref(playerId) {
  return `#player=${encodeURIComponent(playerId)}`;
}

/**
 * The address of a match's replay (replay.js), at a hand, a step and a seat if given:
 * `#replay=T/N&hand=H&step=S&seat=V` (`#replay=import&…` for a record file: no match number).
 * @param {string} tableId
 * @param {number|null} match
 * @param {{hand?: number, step?: number, seat?: number|null}} [at]
 * @returns {string}
 */
export function replayHref(tableId, match, at = {}) {
  const parts = [`replay=${encodeURIComponent(tableId)}${match === null ? "" : `/${match}`}`];
  for (const key of ["hand", "step", "seat"]) {
    if (at[key] !== undefined && at[key] !== null) parts.push(`${key}=${at[key]}`);
  }
  return `#${parts.join("&")}`;
}

/**
 * The address of a page of a game's leaderboard.
 * @param {string} game
 * @param {number} [offset] the ranks before the page's first
 * @returns {string}
 */
export function leaderboardHref(game, offset = 0) {
  return `#leaderboard=${encodeURIComponent(game)}${offset > 0 ? `&offset=${offset}` : ""}`;
}

/**
 * "Leaderboards:" and a link to each game's.
 * @param {Array<{game: string, title: string}>} games
 * @param {string|null} [current] the game whose leaderboard is shown
 * @returns {HTMLElement[]}
 */
export function leaderboardLinks(games, current = null) {
  return [el("span", { class: "muted", text: "Leaderboards:" }),
    ...games.map(({ game, title }) => el("a", { href: leaderboardHref(game), "data-testid": "leaderboard-link",
      "data-game": game, text: title, "aria-current": game === current ? "page" : null }))];
}

/**
 * A name that links to its player's profile (plain text when there is no player to show).
 * @param {string} text the name as shown
 * @param {string|null|undefined} playerId
 * @param {string} className
 * @returns {HTMLElement}
 */
export function nameLink(text, playerId, className) {
  return playerId
    ? el("a", { class: className, href: profileHref(playerId), title: `${text}: profile and rating`, text })
    : el("span", { class: className, text });
}

/**
 * A rating in words: "1532", or "" when there is none yet.
 * @param {number|null|undefined} rating
 * @returns {string}
 */
export function ratingText(rating) {
  return rating == null ? "" : String(Math.round(rating));
}

/**
 * A rating as shown beside a name ("1532"), or null when there is none yet.
 * @param {number|null|undefined} rating
 * @param {string} className
 * @returns {HTMLElement|null}
 */
export function ratingBadge(rating, className) {
  return rating == null ? null
    : el("span", { class: className, title: "Rating in this game", text: ratingText(rating) });
}
