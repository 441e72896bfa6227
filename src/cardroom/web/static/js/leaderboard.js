/**
 * A game's leaderboard: `#leaderboard=GAME` (`&offset=N` for a later page), from
 * `GET /api/leaderboard` (docs/protocol.md, "Accounts, profiles and ratings"): the players
 * and bot levels with enough rated matches, best first, with their rank, rating, matches and
 * wins; each name links to its profile.
 *
 * @module leaderboard
 */

import { el, leaderboardHref, nameLink, plural, ratingText } from "./dom.js";
import { fetchJSON, headerRow, numberCell, screenNav, showFailure, showLoading } from "./players.js";

/** Rows on a page. */
const PAGE = 50;

/** The page being loaded: a newer one supersedes it. */
let latest = 0;

/**
 * Load a page of a game's leaderboard and draw it in `root`.
 * @param {HTMLElement} root
 * @param {string} game
 * @param {number} offset the first rank shown, less one
 * @param {import("./players.js").PlayersContext} ctx
 */
export async function showLeaderboard(root, game, offset, ctx) {
  const ticket = ++latest;
  showLoading(root, ctx, "Fetching the leaderboard…");
  let board;
  try {
    const query = new URLSearchParams({ game, offset: String(offset), limit: String(PAGE) });
    board = await fetchJSON(`/api/leaderboard?${query}`);
  } catch (error) {
    if (ticket === latest) showFailure(root, ctx, error);
    return;
  }
  if (ticket !== latest) return;
  root.replaceChildren(screenNav(ctx, game), renderBoard(board, offset, ctx));
}

/**
 * The leaderboard's card: what it counts, the table, the pages.
 * @param {{game: string, min_matches: number, total: number, players: Array<object>}} board
 * @param {number} offset the ranks before the page's first
 * @param {import("./players.js").PlayersContext} ctx
 */
function renderBoard(board, offset, ctx) {
  const me = ctx.me()?.player_id;
  const rows = board.players.map((entry) => el("tr", {
    class: entry.player_id === me ? "mine" : null, "data-testid": "leaderboard-row",
    dataset: { playerId: entry.player_id } },
  numberCell(entry.rank),
  el("td", { class: "leaderboard-name" }, nameLink(entry.name, entry.player_id, "player-link"),
    entry.bot ? el("span", { class: "tag tag-bot-level", text: "bot", title: `The ${entry.name} bots, all together` }) : null),
  numberCell(ratingText(entry.rating)),
  numberCell(entry.matches),
  numberCell(entry.wins)));
  return el("section", { class: "card leaderboard", "data-testid": "leaderboard", dataset: { game: board.game },
    "aria-labelledby": "leaderboard-heading" },
  el("h1", { id: "leaderboard-heading" }, "Leaderboard ",
    el("span", { class: `tag tag-game game-${board.game}`, text: board.game })),
  el("p", { class: "muted small", "data-testid": "leaderboard-rule",
    text: `Players and bots with at least ${plural(board.min_matches, "rated match", "rated matches")} `
      + `of ${board.game}, best first. `
      + "Every finished match at a rated table changes its players' ratings." }),
  rows.length
    ? el("table", { class: "players-table leaderboard-table" },
      headerRow(["#", "Name", "Rating", "Matches", "Wins"], [0, 2, 3, 4]),
      el("tbody", {}, ...rows))
    : el("p", { class: "players-empty", text: `Nobody has played ${plural(board.min_matches, "rated match",
      "rated matches")} of ${board.game} yet: finish matches at rated tables to appear here.` }),
  pages(board, offset));
}

/** "51–100 of 230" with the previous and next pages, when there is more than one. */
function pages(board, offset) {
  if (board.total <= board.players.length && offset === 0) return null;
  const last = offset + board.players.length;
  return el("nav", { class: "leaderboard-pages", "aria-label": "Pages" },
    offset > 0 ? el("a", { class: "btn btn-small", href: leaderboardHref(board.game, Math.max(0, offset - PAGE)),
      "data-testid": "leaderboard-previous", text: "← Better ranked" }) : null,
    el("span", { class: "muted small", text: `${offset + 1}–${last} of ${board.total}` }),
    last < board.total ? el("a", { class: "btn btn-small", href: leaderboardHref(board.game, last),
      "data-testid": "leaderboard-next", text: "Next ranks →" }) : null);
}
