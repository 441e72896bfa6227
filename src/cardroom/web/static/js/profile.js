/**
 * A player's (or a bot level's) profile: `#player=ID`, from `GET /api/players/{id}`
 * (docs/protocol.md, "Accounts, profiles and ratings").
 *
 * Per game: matches, wins, win rate, hands, points per hand, the rating (and whether it is
 * still provisional) with a chart of its history, and the contracts bid and made by level and
 * type. Then the latest matches, with the partners and opponents (links to their profiles),
 * the result, the score, a link to the match's replay (replay.js) and one to its record
 * (`cardroom replay FILE` plays it). Before them, the player's days of the daily challenge
 * (challenge.js): day, rank among the day's players, score.
 *
 * @module profile
 */

import { lineChart } from "./chart.js";
import { el, nameLink, plural, ratingText, replayHref } from "./dom.js";
import { loadGames, presetTitle } from "./lobby.js";
import { score } from "./markup.js";
import { challengeHistory } from "./challenge.js";
import { fetchJSON, headerRow, numberCell, screenNav, showFailure, showLoading } from "./players.js";

/** A newcomer's rating: the history's starting point. */
const NEWCOMER_RATING = 1500;
/** The most rating changes the profile holds: a full history no longer starts at a newcomer. */
const HISTORY_KEPT = 200;
/** The rating chart's width bounds, in SVG units (CSS pixels when drawn). */
const CHART_NARROWEST = 260;
const CHART_WIDEST = 600;
/** A history longer than this draws its line without a dot per match. */
const MOST_DOTS = 60;

/** The profile being loaded: a newer one supersedes it. */
let latest = 0;

/**
 * Load a player's profile and draw it in `root`.
 * @param {HTMLElement} root
 * @param {string} playerId a player's id, or `bot:NAME`
 * @param {import("./players.js").PlayersContext} ctx
 */
export async function showProfile(root, playerId, ctx) {
  const ticket = ++latest;
  showLoading(root, ctx, "Fetching the player's matches and ratings…");
  let profile;
  try {
    // The games' catalogues name the presets of the latest matches.
    [profile] = await Promise.all([fetchJSON(`/api/players/${encodeURIComponent(playerId)}`),
      loadGames().catch(() => null)]);
  } catch (error) {
    if (ticket === latest) showFailure(root, ctx, error);
    return;
  }
  if (ticket !== latest) return;
  root.replaceChildren(screenNav(ctx), ...renderProfile(profile, ctx, chartWidth(root)));
  // The daily challenge's days, put before the latest matches once they come (the profile
  // is drawn without waiting for them).
  const history = await challengeHistory(profile.player_id).catch(() => null);
  if (history && ticket === latest) root.querySelector(".profile-recent")?.before(history);
}

/**
 * The rating chart's width in SVG units: the room it gets on screen, so that its labels are
 * drawn at their own size on a phone and a desktop alike.
 * @param {HTMLElement} root
 */
function chartWidth(root) {
  return Math.round(Math.min(CHART_WIDEST, Math.max(CHART_NARROWEST, root.clientWidth - 60)));
}

/**
 * The profile's parts: who, each game played, the latest matches.
 * @param {object} profile the document of `/api/players/{id}`
 * @param {import("./players.js").PlayersContext} ctx
 * @param {number} width the rating charts' width
 * @returns {HTMLElement[]}
 */
function renderProfile(profile, ctx, width) {
  const played = Object.entries(profile.games || {})
    .filter(([, stats]) => stats.matches || stats.rating);
  return [
    identity(profile, ctx),
    ...(played.length ? played.map(([game, stats]) => gameCard(game, stats, width))
      : [el("section", { class: "card profile-game" },
        el("p", { class: "muted", text: "No finished matches yet." }))]),
    recentMatches(profile),
  ];
}

/** The name, with what kind of player it is. */
function identity(profile, ctx) {
  const mine = ctx.me()?.player_id === profile.player_id;
  const kind = profile.deleted ? "The account was deleted; its matches stay under this name."
    : profile.bot ? `Bot level: ${profile.name}`
      : profile.registered ? "A player with an account" : "A guest: the name is not saved to an account";
  return el("header", { class: "card profile-head", "data-testid": "profile",
    dataset: { playerId: profile.player_id } },
  el("h1", { "data-testid": "profile-name" }, profile.deleted ? "Deleted player" : profile.name,
    mine ? el("span", { class: "tag tag-you", text: "you" }) : null),
  el("p", { class: "muted", "data-testid": "profile-kind", text: kind }));
}

/**
 * One game's card: the rating and its chart, the figures, the contracts.
 * @param {string} game
 * @param {object} stats the profile's `games[game]`
 * @param {number} width the rating chart's width
 */
function gameCard(game, stats, width) {
  return el("section", { class: "card profile-game", "data-testid": "profile-game", dataset: { game },
    "aria-labelledby": `profile-game-${game}` },
  el("div", { class: "profile-game-head" },
    el("h2", { id: `profile-game-${game}` }, el("span", { class: `tag tag-game game-${game}`, text: game })),
    ratingFigure(stats.rating)),
  figures(stats),
  stats.history?.length ? ratingChart(stats.history, width) : null,
  stats.contracts?.length ? contracts(stats.contracts) : null);
}

/** The rating in large figures, "provisional" until enough matches. */
function ratingFigure(rating) {
  if (!rating) return el("p", { class: "muted small", text: "No rating yet: it comes with the first rated match." });
  return el("p", { class: "profile-rating" },
    el("span", { class: "muted small", text: "Rating " }),
    el("strong", { class: "rating-value", "data-testid": "profile-rating", text: ratingText(rating.rating) }),
    rating.provisional ? el("span", { class: "tag tag-provisional", "data-testid": "provisional",
      text: "provisional", title: "Not settled yet: a rating is provisional for its first 10 rated matches" }) : null,
    el("span", { class: "muted small", text: ` after ${plural(rating.matches, "rated match", "rated matches")}` }));
}

/** Matches, wins, win rate, hands, points per hand. */
function figures(stats) {
  const figure = (label, value, testid) => el("div", { class: "profile-figure" },
    el("dt", { text: label }), el("dd", { "data-testid": testid, text: String(value) }));
  return el("dl", { class: "profile-figures" },
    figure("Matches", stats.matches, "profile-matches"),
    figure("Wins", stats.wins, "profile-wins"),
    figure("Win rate", percent(stats.win_rate), "profile-win-rate"),
    figure("Hands", stats.hands, "profile-hands"),
    figure("Points a hand", decimal(stats.points_per_hand), "profile-points"));
}

/**
 * The rating after each rated match, oldest first, from a newcomer's rating when the history
 * is whole.
 * @param {Array<{at: number, rating: number}>} history
 * @param {number} width in SVG units
 */
function ratingChart(history, width) {
  const whole = history.length < HISTORY_KEPT;
  const points = whole ? [{ at: null, rating: NEWCOMER_RATING }, ...history] : history;
  const values = points.map((point) => point.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const margin = Math.max(10, (high - low) * 0.1);
  const guides = [{ value: high, className: "chart-zero", label: ratingText(high) }];
  if (high - low >= 1) guides.push({ value: low, className: "chart-zero", label: ratingText(low) });
  const clear = (high - low) * 0.15;
  if (NEWCOMER_RATING - low > clear && high - NEWCOMER_RATING > clear) {
    guides.push({ value: NEWCOMER_RATING, className: "chart-target", label: String(NEWCOMER_RATING) });
  }
  const last = points.length - 1;
  const picture = lineChart({
    series: [{
      values,
      className: "rating-line",
      title: (i) => (i === last || (points.length <= MOST_DOTS && points[i].at !== null)
        ? `${ratingText(values[i])}${points[i].at ? ` on ${day(points[i].at)}` : ""}` : null),
    }],
    range: [low - margin, high + margin],
    guides,
    startLabel: whole ? "start" : day(points[0].at),
    endLabel: day(points[last].at),
    description: `Rating over ${plural(history.length, "rated match", "rated matches")}: `
      + `from ${ratingText(values[0])} to ${ratingText(values[last])}`,
    width,
    height: 140,
    className: "rating-chart-svg",
  });
  return el("figure", { class: "rating-chart", "data-testid": "rating-chart" }, picture,
    el("figcaption", { class: "muted small", text: "Rating after each rated match" }));
}

/** The contracts bid and made, by level and type. */
function contracts(rows) {
  return el("table", { class: "players-table profile-contracts", "data-testid": "profile-contracts" },
    el("caption", { text: "Contracts as the contractor" }),
    headerRow(["Contract", "Bid", "Made", "Made %"], [1, 2, 3]),
    el("tbody", {}, ...rows.map(({ label, bid, made }) => el("tr", {},
      el("th", { scope: "row", text: label }),
      numberCell(bid), numberCell(made), numberCell(bid ? percent(made / bid) : "–")))));
}

/** The latest matches, newest first. */
function recentMatches(profile) {
  const matches = profile.recent || [];
  return el("section", { class: "card profile-recent", "aria-labelledby": "recent-heading" },
    el("h2", { id: "recent-heading", text: "Latest matches" }),
    matches.length ? el("table", { class: "players-table recent-table", "data-testid": "recent-matches" },
      headerRow(["Date", "Game", "With", "Against", "Result", "Score", ""], [5]),
      el("tbody", {}, ...matches.map((match) => matchRow(match, profile.player_id))))
      : el("p", { class: "muted", text: "No finished matches yet." }));
}

/**
 * One match: when, which game and rules, partners and opponents, won or lost, the score, and
 * its record.
 * @param {object} match an entry of the profile's `recent`
 * @param {string} playerId whose profile this is
 */
function matchRow(match, playerId) {
  const sides = match.scores?.length || 1;
  const hidden = match.table_id === null; // a private table's: nobody else is named
  const others = (match.players || []).filter((player) => player.player_id !== playerId);
  const partners = others.filter((player) => player.seat % sides === match.side);
  const opponents = others.filter((player) => player.seat % sides !== match.side);
  const otherScores = (match.scores || []).filter((_, side) => side !== match.side).map(score);
  return el("tr", { "data-testid": "recent-match", dataset: { game: match.game } },
    el("td", { "data-label": "Date", text: when(match.finished_at) }),
    el("td", { "data-label": "Game" },
      el("span", { class: `tag tag-game game-${match.game}`, text: match.game }),
      presetTitle(match.game, match.preset) || match.preset || "House rules"),
    el("td", { "data-label": "With" }, ...names(partners, hidden ? "a private table" : "alone")),
    el("td", { "data-label": "Against" }, ...names(opponents, hidden ? "a private table" : "—")),
    el("td", { "data-label": "Result" },
      el("span", { class: `result ${match.won ? "made" : "failed"}`, text: match.won ? "Won" : "Lost" })),
    el("td", { class: "number", "data-label": "Score" },
      el("strong", { text: score(match.score) }), otherScores.length ? ` to ${otherScores.join(", ")}` : ""),
    el("td", { class: "record-cell" }, hidden ? null : el("a", {
      href: replayHref(match.table_id, match.match), "data-testid": "replay-link", text: "Replay",
      title: "Watch the match again, card by card, every hand shown" }),
    match.record ? el("a", { href: match.record, download: "", "data-testid": "record-link", text: "Record",
      title: "Download the match's record: cardroom replay FILE plays it back hand by hand" }) : null));
}

/** Players' names as links to their profiles, separated by commas. */
function names(players, none) {
  if (!players.length) return [el("span", { class: "muted", text: none })];
  return players.flatMap((player, n) => [n ? ", " : "",
    nameLink(player.name || "Deleted player", player.player_id, "player-link")]);
}

/** A fraction as a percentage: "58%". */
function percent(fraction) {
  return fraction == null ? "–" : `${Math.round(fraction * 100)}%`;
}

/** A number with one decimal: "23.4". */
function decimal(value) {
  return value == null ? "–" : (Math.round(value * 10) / 10).toFixed(1);
}


/** A day from unix seconds: "3 May 2026". */
function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

/** A moment from unix seconds: "3 May 2026, 14:05". */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined,
    { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}
