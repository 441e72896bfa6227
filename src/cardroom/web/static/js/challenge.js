/**
 * The daily challenge: `#challenge=GAME` (today's) or `#challenge=GAME&day=YYYY-MM-DD` (a
 * past day's), from `GET /api/challenge`, `/api/challenge/days` and, on a profile,
 * `/api/challenge/players/{id}` (docs/protocol.md, "The daily challenge").
 *
 * Every day (UTC) the same deals for everybody, played once each at a table of one's own with
 * bots in the other seats, and scored by duplicate: on each deal, the share of the other
 * results one beat (a tie counting half), the bots' own result on the deal among them.
 *
 * The screen: a card per game with where the player stands today (play, continue, or done and
 * the rank), the day's leaderboard of the game chosen (each player's deals and their replays
 * once the player has finished the day, or the day is over, and for each deal the player's
 * result beside the best one), then the past days.
 *
 * @module challenge
 */

import { el, nameLink, plural, replayHref } from "./dom.js";
import { score, signed } from "./markup.js";
import { fetchJSON, headerRow, screenNav, showFailure, showLoading } from "./players.js";

/** The games with a daily challenge, in the order their cards are shown. */
export const CHALLENGE_GAMES = ["500", "1000"];

/** How many deals each game's challenge has a day (the boards say; these until one is read). */
export const CHALLENGE_DEALS = { 500: 8, 1000: 6 };

/** The screen being loaded: a newer one supersedes it. */
let latest = 0;

/**
 * What the screen needs from the page, besides the players' screens' context.
 * @typedef {import("./players.js").PlayersContext & {
 *   playChallenge: (game: string) => Promise<unknown>,
 *   challengeTable: (tableId: string, game: string) => void}} ChallengeContext
 */

/**
 * The address of a game's challenge screen (a past day's with `day`).
 * @param {string} game
 * @param {string|null} [day]
 * @returns {string}
 */
export function challengeHref(game, day = null) {
  return `#challenge=${encodeURIComponent(game)}${day ? `&day=${encodeURIComponent(day)}` : ""}`;
}

/**
 * Read a challenge hash's parameters, or null if it names no challenge screen.
 * @param {URLSearchParams} params
 * @param {string} hash the whole hash (`challenge` alone is today's 500)
 * @returns {{game: string, day: string|null}|null}
 */
export function parseChallenge(params, hash) {
  if (hash === "challenge") return { game: CHALLENGE_GAMES[0], day: null };
  const game = params.get("challenge");
  if (!game) return null;
  const day = params.get("day");
  return { game, day: day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null };
}

/**
 * Load the challenge screen and draw it in `root`.
 * @param {HTMLElement} root
 * @param {{game: string, day: string|null}} where
 * @param {ChallengeContext} ctx
 */
export async function showChallenge(root, where, ctx) {
  const ticket = ++latest;
  showLoading(root, ctx, "Fetching the daily challenge…");
  const query = (game, day) => `/api/challenge?${new URLSearchParams(day ? { game, day } : { game })}`;
  let todays;
  let board;
  let days;
  try {
    todays = await Promise.all(CHALLENGE_GAMES.map((game) => fetchJSON(query(game, null)).catch(() => null)));
    const shownToday = where.day === null ? todays[CHALLENGE_GAMES.indexOf(where.game)] : null;
    [board, days] = await Promise.all([
      shownToday || fetchJSON(query(where.game, where.day)),
      fetchJSON(`/api/challenge/days?${new URLSearchParams({ game: where.game })}`).catch(() => null),
    ]);
  } catch (error) {
    if (ticket === latest) showFailure(root, ctx, error);
    return;
  }
  if (ticket !== latest) return;
  for (const today of [...todays, board]) {
    if (!today) continue;
    CHALLENGE_DEALS[today.game] = today.deals;
    if (today.you?.table_id) ctx.challengeTable(today.you.table_id, today.game);
  }
  const nav = screenNav(ctx);
  nav.querySelector("[data-testid=to-challenge]")?.remove(); // this very screen
  root.replaceChildren(nav, intro(), gameCards(todays, where.game, ctx),
    leaderboard(board, ctx), ...(board.deals_shown ? [dealByDeal(board, ctx)] : []),
    archive(days, board));
}

/** What the challenge is, in a card player's words. */
function intro() {
  return el("header", { class: "card challenge-intro", "data-testid": "challenge" },
    el("h1", { text: "Daily challenge" }),
    el("p", { class: "muted", text: "The same deals for everybody today, played once at your own pace, with bots "
      + "as partner and opponents. Each deal is scored against everybody's result on the same cards, the bots' "
      + "own included: beat them all for 100%, half of them for 50% (a tie counts half). "
      + "New deals at midnight UTC." }));
}

/**
 * A card per game: where this player stands in today's challenge.
 * @param {Array<object|null>} todays today's board of each game (null: not to be had)
 * @param {string} current the game whose leaderboard is shown
 * @param {ChallengeContext} ctx
 */
function gameCards(todays, current, ctx) {
  return el("div", { class: "challenge-games" }, ...CHALLENGE_GAMES.map((game, n) => {
    const board = todays[n];
    return el("section", { class: `card challenge-game${game === current ? " current" : ""}`,
      "data-testid": "challenge-game", dataset: { game }, "aria-labelledby": `challenge-game-${game}` },
    el("h2", { id: `challenge-game-${game}` },
      el("span", { class: `tag tag-game game-${game}`, text: game }),
      board ? `${plural(board.deals, "deal", "deals")} today` : "Today"),
    board ? el("p", { class: "muted small", text: entriesText(board) }) : null,
    board ? state(board, ctx) : el("p", { class: "muted", text: "Not to be had just now: try again in a moment." }),
    game === current ? null : el("a", { class: "challenge-see", href: challengeHref(game),
      "data-testid": "challenge-see", text: `Today's ${game} leaderboard` }));
  }));
}

/** "3 players so far" */
function entriesText(board) {
  if (!board.entries) return "Nobody has played yet: be the first.";
  return `${plural(board.entries, "player", "players")} so far`;
}

/**
 * The player's state in today's challenge of the board's game: a button to play or go on, or
 * the result once every deal is played.
 * @param {object} board today's board
 * @param {ChallengeContext} ctx
 */
function state(board, ctx) {
  const you = board.you;
  if (you && you.played >= board.deals) {
    const place = placeOf(board);
    return el("div", { class: "challenge-state done" },
      el("p", { class: "challenge-done", "data-testid": "challenge-state", dataset: { state: "done" } },
        el("strong", { text: "Done: " }), place ? `rank ${place.rank} of ${place.of}${place.tied ? " (tied)" : ""}`
          : "every deal played",
        place?.total != null ? el("span", { class: "challenge-total", text: ` · ${percentText(place.total, board.deals)}` })
          : null),
      el("p", { class: "muted small", text: board.bots_ready
        ? "The bots' own result counts as one more. Come back tomorrow for new deals."
        : "Come back tomorrow for new deals." }));
  }
  const started = Boolean(you);
  const text = started ? `Continue (deal ${Math.min(you.played + 1, board.deals)} of ${board.deals})`
    : "Play today's challenge";
  const button = el("button", { type: "button", class: "btn btn-primary btn-large", "data-testid": "challenge-play",
    "data-game": board.game, dataset: { state: started ? "started" : "new" }, text });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await ctx.playChallenge(board.game);
    } catch {
      // The page shows the error in the notice region.
    } finally {
      button.disabled = false;
    }
  });
  return el("div", { class: "challenge-state" }, button,
    el("p", { class: "muted small", text: started
      ? `${plural(you.played, "deal", "deals")} played: the table waits for you all day.`
      : `${plural(board.deals, "deal", "deals")} to play today, at your own pace. Ratings do not change.` }));
}

/**
 * The player's place on the day's leaderboard, as the server ranks it (every row, the bots'
 * included, as a profile's history counts it too), whether another row shares it, and the
 * player's total.
 * @param {object} board
 * @returns {{rank: number, of: number, tied: boolean, total: number|null}|null}
 */
function placeOf(board) {
  const row = board.you_row;
  const rank = board.you?.rank ?? row?.rank;
  if (rank == null) return null;
  const of = board.total_rows ?? board.rows.length;
  const tied = board.rows.filter((other) => other.rank === rank).length > 1;
  return { rank, of, tied, total: row?.total ?? null };
}

/**
 * A day's total as the share of the most matchpoints there were: "61.3%" (the ranking's own
 * order, every deal counting whether played or not).
 */
function percentText(total, deals) {
  return `${(Math.round((total / deals) * 10) / 10).toFixed(1)}%`;
}

/** Points, whole or with one decimal (1000's three seats give halves). */
function pointsText(points, sign = false) {
  const rounded = Math.round(points * 10) / 10;
  return sign ? signed(rounded) : score(rounded);
}

/** A day in words: "Wed 25 Nov 2026". */
function dayText(day) {
  const date = new Date(`${day}T12:00:00Z`);
  return date.toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric",
    timeZone: "UTC" });
}

/**
 * The day's leaderboard: rank, name, score, points and deals played; with the deals shown,
 * each player's deals under their row, each with its replay.
 * @param {object} board
 * @param {ChallengeContext} ctx
 */
function leaderboard(board, ctx) {
  const me = ctx.me()?.player_id;
  const mine = (row) => row.player_id && row.player_id === me;
  const listed = [...board.rows];
  // The asker's own row, when it is not on this page of the standings.
  const own = board.you_row && !listed.some(mine) ? board.you_row : null;
  if (own) listed.push(own);
  const rows = listed.flatMap((row) => {
    const line = el("tr", { class: [row.bots ? "bots" : "", mine(row) ? "mine" : ""].join(" ").trim() || null,
      "data-testid": "challenge-row", dataset: { playerId: row.player_id || "bots", rank: row.rank ?? "" } },
    el("td", { class: "number", text: row.rank == null ? "–" : String(row.rank) }),
    el("td", { class: "leaderboard-name" },
      row.bots ? el("span", { class: "challenge-bots-name", text: row.name }) : nameLink(row.name, row.player_id, "player-link"),
      row.bots ? el("span", { class: "tag tag-bot-level", text: "bots",
        title: "The bots playing all four seats: one more result to beat on each deal" }) : null,
      mine(row) ? el("span", { class: "tag tag-you", text: "you" }) : null),
    row.total == null
      ? el("td", { class: "number muted", "data-testid": "challenge-total", text: "–",
        title: "Shown once you have played every deal" })
      : el("td", { class: "number", "data-testid": "challenge-total",
        title: `${row.total} matchpoints of ${board.deals * 100}` },
      el("strong", { text: percentText(row.total, board.deals) })),
    el("td", { class: "number", text: row.points == null ? "–" : pointsText(row.points, true) }),
    el("td", { class: "number", text: `${row.played}/${board.deals}` }));
    if (!row.deals) return [line];
    return [line, el("tr", { class: `challenge-deals-row${mine(row) ? " mine" : ""}${row.bots ? " bots" : ""}` },
      el("td", { colspan: 5 }, dealChips(row)))];
  });
  const heading = board.day === board.today ? "Today's leaderboard" : `Leaderboard of ${dayText(board.day)}`;
  return el("section", { class: "card leaderboard challenge-board", "data-testid": "challenge-board",
    dataset: { game: board.game, day: board.day }, "aria-labelledby": "challenge-board-heading" },
  el("h2", { id: "challenge-board-heading" }, heading,
    el("span", { class: `tag tag-game game-${board.game}`, text: board.game })),
  el("p", { class: "muted small", text: boardRule(board) }),
  rows.length
    ? el("table", { class: "players-table leaderboard-table challenge-table" },
      headerRow(["#", "Name", "Score", "Points", "Deals"], [0, 2, 3, 4]),
      el("tbody", {}, ...rows))
    : el("p", { class: "players-empty", text: "Nobody has played this day's deals." }),
  board.total_rows > board.rows.length
    ? el("p", { class: "muted small", text: `The first ${board.rows.length} of ${board.total_rows} rows.` }) : null);
}

/** What the leaderboard's figures are, and when the deals show. */
function boardRule(board) {
  const parts = [`Score: the matchpoints won on the ${plural(board.deals, "deal", "deals")}, as a share of all `
    + "there were (a deal not played scores nothing). Points: your side's points less the other side's."];
  if (!board.deals_shown) {
    parts.push("Until you have played every deal (or the day is over) you see who is playing and how far "
      + "they have got; their scores, deals and replays show after, so nobody learns which deals are big ones.");
  }
  if (!board.bots_ready) parts.push("The bots are still playing their own result.");
  return parts.join(" ");
}

/**
 * A player's deals: "Deal 3: +40, 75%" each with its replay when there is one.
 * @param {object} row a board row whose `deals` are shown
 */
function dealChips(row) {
  return el("ol", { class: "challenge-deals", "data-testid": "challenge-deals",
    "aria-label": `${row.name}: each deal` }, ...row.deals.map((deal, n) => {
    const number = n + 1;
    if (!deal) return el("li", { class: "challenge-deal missing", text: `${number}: not played` });
    const [points, mp] = deal;
    const text = [el("span", { class: "deal-number", text: `${number}` }),
      el("span", { class: "deal-points", text: pointsText(points, true) }),
      el("span", { class: "deal-mp", text: `${Math.round(mp)}%` })];
    return el("li", { class: "challenge-deal" }, row.table_id
      ? el("a", { href: replayHref(row.table_id, number), "data-testid": "challenge-replay", dataset: { deal: number },
        title: `Replay deal ${number} as ${row.name} played it` }, ...text)
      : el("span", { title: "The bots' result: no replay" }, ...text));
  }));
}

/**
 * Each deal: the player's own result and replay beside the best result's.
 * @param {object} board a board whose deals are shown
 * @param {ChallengeContext} ctx
 */
function dealByDeal(board, ctx) {
  const me = ctx.me()?.player_id;
  const own = board.rows.find((row) => row.player_id && row.player_id === me) || null;
  const bots = board.rows.find((row) => row.bots) || null;
  const lines = [];
  for (let n = 0; n < board.deals; n += 1) {
    const number = n + 1;
    // The best result a replay shows: the players' (the bots' has no table to replay).
    const played = board.rows.filter((row) => !row.bots && row.deals?.[n]);
    if (!played.length) continue;
    const top = Math.max(...played.map((row) => row.deals[n][0]));
    const best = played.find((row) => row === own && row.deals[n][0] === top)
      || played.find((row) => row.deals[n][0] === top);
    // When the bots did better than every player, theirs is the best result and comes first;
    // the players' best follows, said to be theirs.
    const botsBetter = bots?.deals?.[n] && bots.deals[n][0] > top
      ? el("span", { class: "small challenge-bots-better",
        title: "The bots' own result, playing all four seats (no replay)" },
      el("strong", { text: pointsText(bots.deals[n][0], true) }), " the bots") : null;
    const playersBest = botsBetter ? el("span", { class: "muted small", text: "players' best: " }) : null;
    const yours = own?.deals?.[n];
    lines.push(el("tr", { "data-testid": "challenge-deal-line", dataset: { deal: number } },
      el("th", { scope: "row", text: String(number) }),
      own ? el("td", {}, yours ? result(own, n, "Your replay", "challenge-own-replay")
        : el("span", { class: "muted", text: "not played" })) : null,
      el("td", {}, botsBetter, best === own
        ? el("span", { class: "challenge-result" }, playersBest, el("span", { class: "tag tag-you", text: "yours",
          title: played.length > 1 ? "No other player did better than you" : "Nobody else has played it yet" }))
        : result(best, n, "Best replay", "challenge-best-replay", true, playersBest))));
  }
  return el("section", { class: "card challenge-by-deal", "data-testid": "challenge-by-deal",
    "aria-labelledby": "challenge-by-deal-heading" },
  el("h2", { id: "challenge-by-deal-heading", text: "Deal by deal" }),
  el("p", { class: "muted small", text: own ? "Your result on each deal beside the best one, with their replays."
    : "The best result on each deal, with its replay." }),
  el("table", { class: "players-table challenge-by-deal-table" },
    headerRow(own ? ["Deal", "You", "Best"] : ["Deal", "Best"]), el("tbody", {}, ...lines)));
}

/** A row's result on deal `n`: points, matchpoints and its replay link (after `lead`, if any). */
function result(row, n, label, testid, named = false, lead = null) {
  const [points, mp] = row.deals[n];
  return el("span", { class: "challenge-result" }, lead,
    el("strong", { text: pointsText(points, true) }),
    el("span", { class: "muted", text: ` ${Math.round(mp)}%` }),
    named ? el("span", { class: "challenge-result-name", text: ` ${row.name}` }) : null,
    row.table_id ? el("a", { class: "btn btn-small challenge-replay-button", href: replayHref(row.table_id, n + 1),
      "data-testid": testid, dataset: { deal: n + 1 }, text: label,
      title: `Watch deal ${n + 1} as ${row.name} played it, card by card` }) : null);
}

/**
 * The past days: each with how many played and who won; a click shows its leaderboard.
 * @param {{days: Array<{day: string, entries: number, winners: string[]}>}|null} days
 * @param {object} board the board shown (its day is marked)
 */
function archive(days, board) {
  const list = days?.days || [];
  return el("section", { class: "card challenge-archive", "data-testid": "challenge-archive",
    "aria-labelledby": "challenge-archive-heading" },
  el("h2", { id: "challenge-archive-heading" }, "Past days ",
    el("span", { class: `tag tag-game game-${board.game}`, text: board.game })),
  board.day !== board.today ? el("p", {}, el("a", { href: challengeHref(board.game), "data-testid": "challenge-today",
    text: "← Back to today's challenge" })) : null,
  list.length ? el("ul", { class: "challenge-days" }, ...list.map((past) => el("li", {
    "aria-current": past.day === board.day ? "page" : null },
  el("a", { href: challengeHref(board.game, past.day), "data-testid": "challenge-day", dataset: { day: past.day },
    text: dayText(past.day) }),
  el("span", { class: "muted small", text: ` · ${plural(past.entries, "player", "players")}`
    + `${past.winners.length ? ` · won by ${past.winners.join(", ")}` : ""}` }))))
    : el("p", { class: "muted", text: "No past days yet: the first day's leaderboard lands here tomorrow." }));
}

/**
 * A player's past and present challenge days, for their profile: day, rank of how many, score.
 * @param {string} playerId
 * @returns {Promise<HTMLElement|null>} the card, or null when they never played
 */
export async function challengeHistory(playerId) {
  if (playerId.startsWith("bot:")) return null;
  const histories = await Promise.all(CHALLENGE_GAMES.map((game) => fetchJSON(
    `/api/challenge/players/${encodeURIComponent(playerId)}?${new URLSearchParams({ game })}`).catch(() => null)));
  const rows = histories.flatMap((history) => (history?.days || []).map((day) => ({ ...day, game: history.game })));
  if (!rows.length) return null;
  rows.sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : a.game.localeCompare(b.game)));
  return el("section", { class: "card profile-challenge", "data-testid": "profile-challenge",
    "aria-labelledby": "profile-challenge-heading" },
  el("h2", { id: "profile-challenge-heading", text: "Daily challenge" }),
  el("table", { class: "players-table challenge-history" },
    headerRow(["Day", "Game", "Rank", "Score", "Deals"], [2, 3, 4]),
    el("tbody", {}, ...rows.map((day) => el("tr", { "data-testid": "challenge-history-row",
      dataset: { day: day.day, game: day.game } },
    el("td", {}, el("a", { href: challengeHref(day.game, day.over ? day.day : null), text: dayText(day.day) })),
    el("td", {}, el("span", { class: `tag tag-game game-${day.game}`, text: day.game })),
    el("td", { class: "number", text: rankText(day) }),
    el("td", { class: "number", text: day.total == null ? "–" : percentText(day.total, day.deals) }),
    el("td", { class: "number", text: `${day.played}/${day.deals}` }))))));
}

/** A history day's rank: "2 of 5"; today's shows once the day is over. */
function rankText(day) {
  if (day.rank != null) return `${day.rank} of ${day.of}`;
  if (day.over) return "–";
  return day.played >= day.deals ? "today: done" : "today: playing";
}
