/**
 * The score panel (seed 004 sections 3.6 and 4.2).
 *
 * "Simple" shows each side's current score under its players' names. "Detailed" shows every
 * hand of every match played at this table — the finished matches' `hands`, then the current
 * match's `view.history` — with the contract, whether it was made, the change for each side
 * and the running scores. Both show a small SVG line chart of the current match.
 *
 * Nothing here knows which game is played: the sides and any marks by a side's score (1000's
 * barrel and bolts) come from the table's game widgets (game_widgets.js), and each side is
 * drawn in its `team-N` colour, the same as on the table (base.css).
 *
 * @module scores
 */

import { lineChart } from "./chart.js";
import { el, replayHref, seatName, teamName } from "./dom.js";
import { defaultTeams } from "./game_widgets.js";
import { score, signed } from "./markup.js";

const SUIT_SYMBOLS = { S: "♠", C: "♣", D: "♦", H: "♥" };

/**
 * Draw the scores of a `table` message into `root`.
 * @param {HTMLElement} root
 * @param {object|null} update the latest `table` message (null: nothing to show)
 * @param {"detailed"|"simple"} mode
 * @param {import("./game_widgets.js").GameWidgets|null} [game] the shown table's game
 *   widgets, which know its sides (null while the table is still being laid out)
 */
export function renderScores(root, update, mode, game = null) {
  root.dataset.mode = mode;
  if (!update) {
    root.replaceChildren(el("p", { class: "muted", text: "Scores appear here once you sit at a table." }));
    return;
  }
  const view = update.view;
  const teams = game ? game.teams() : view?.teams || defaultTeams(update.seats?.length || 4);
  const names = teams.map((team, side) => teamName(update.seats, team, sideLabel(teams, side)));
  const current = currentHands(update);
  const scores = view?.scores || current.at(-1)?.scores || teams.map(() => 0);
  const target = view?.rules?.target;
  const tags = (side) => (game ? game.scoreTags(side) : []).map(tag);

  const parts = [summary(names, scores, target, update, teams, tags)];
  parts.push(chart(chartedHands(update), names, target, teams));
  if (mode === "detailed") parts.push(history(update, names, teams));
  root.replaceChildren(...parts);
}

/** A mark by a side's score, as a game's widgets describe it (`scoreTags`). */
function tag({ text, title, kind, testid }) {
  return el("span", { class: `tag${kind ? ` tag-${kind}` : ""}`, "data-testid": testid, text, title });
}

/** "Team One" for partnerships, "Seat 2" for a player on their own. */
function sideLabel(teams, side) {
  if (teams.every((team) => team.length > 1)) return ["Team One", "Team Two", "Team Three"][side] || `Team ${side + 1}`;
  return `Seat ${teams[side][0] + 1}`;
}

/**
 * The current match's hands, unless that match is already among the finished ones (between
 * a match's end and the next match the view still shows the finished match).
 * @returns {Array<object>} HandResult dicts
 */
function currentHands(update) {
  const finished = (update.matches || []).some((m) => m.match === update.match_number);
  return finished ? [] : update.view?.history || [];
}

/**
 * The hands the chart draws: the current match's; between a match's end and the next, the
 * match just finished (the chart of a match just won is not emptied the moment it is won).
 * @returns {Array<object>} HandResult dicts
 */
function chartedHands(update) {
  const finished = (update.matches || []).find((m) => m.match === update.match_number);
  return finished ? finished.hands || [] : update.view?.history || [];
}

/** Each side's name and score (with the game's marks), the target, and the winner once over. */
function summary(names, scores, target, update, teams, tags) {
  const mySide = update.seat == null ? -1 : teams.findIndex((team) => team.includes(update.seat));
  const view = update.view;
  const side = (i) => el("div", { class: `score-side team-${i}${i === mySide ? " mine" : ""}`, dataset: { side: i } },
    el("span", { class: "score-team", text: sideLabel(teams, i) }),
    el("span", { class: "score-names", text: names[i] }),
    el("span", { class: "score-value", text: score(scores[i] ?? 0) }),
    ...tags(i));
  const winner = view?.winner;
  return el("div", { class: "score-summary" },
    el("div", { class: `score-sides sides-${teams.length}` }, ...teams.map((_, i) => side(i))),
    el("p", { class: "muted small score-meta" }, matchText(update, target),
      winner != null ? el("strong", { class: "score-winner", text: ` · ${names[winner]} win!` }) : null));
}

/**
 * Which match this is and how it is won: "Match 2 · first to 500"; a match of a fixed number
 * of deals says so; at a daily challenge's table each deal is a match of its own, "Deal 3 of 8".
 */
function matchText(update, target) {
  const number = update.match_number || 1;
  if (update.challenge) return `Deal ${number} of ${update.challenge.deals}`;
  const deals = update.view?.rules?.deals;
  if (deals) return `Match ${number} · ${deals} ${deals === 1 ? "deal" : "deals"}, the highest score wins`;
  return `Match ${number}${target ? ` · first to ${target}` : ""}`;
}

/**
 * Every hand of every match at this table, newest match last, as seed 004's Detailed view.
 * At a daily challenge's table a match is one deal, and is called so.
 */
function history(update, names, teams) {
  const body = el("tbody");
  const finished = update.matches || [];
  const seats = update.seats || [];
  // A finished match's hands replay for anyone who may see the table; the hands over of the
  // match being played, for its players only (the server says the same).
  const unit = update.challenge ? "Deal" : "Match";
  const rows = (hands, match, replayable) => hands.map((hand, n) =>
    handRow(hand, seats, teams, replayable ? replayHref(update.table_id, match, { hand: n + 1 }) : null));
  for (const match of finished) {
    body.append(matchHeading(`${unit} ${match.match}`, match.winner != null ? `won by ${names[match.winner]}` : "", teams));
    body.append(...rows(match.hands || [], match.match, true));
  }
  const current = currentHands(update);
  // Between a match's end and the next, the match just finished is among the finished ones:
  // no heading says it is still in progress.
  const playing = !finished.some((match) => match.match === update.match_number);
  if (current.length || (playing && finished.length)) {
    if (finished.length || update.match_number > 1) {
      body.append(matchHeading(`${unit} ${update.match_number}`, "in progress", teams));
    }
    body.append(...rows(current, update.match_number, update.seat != null));
  }
  if (!body.childElementCount) {
    return el("p", { class: "muted small", text: "No hands finished yet." });
  }
  return el("div", { class: "score-history" },
    el("table", { class: "score-table" },
      el("caption", { class: "visually-hidden", text: "Every hand played at this table" }),
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: "#" }),
        el("th", { scope: "col", text: "Contract" }),
        ...teams.map((team, i) => el("th", { scope: "col", class: `team-${i}`, title: names[i],
          text: teams.length === 2 && team.length > 1 ? ["One", "Two"][i] : shortName(names[i]) })))),
      body));
}

/** A name cut to fit a narrow column. */
function shortName(name) {
  return name.length > 8 ? `${name.slice(0, 7)}…` : name;
}

/** A row naming a match between its hands. */
function matchHeading(title, note, teams) {
  return el("tr", { class: "match-row" },
    el("th", { colspan: 2 + teams.length, scope: "rowgroup" }, title, note ? el("span", { class: "muted", text: ` — ${note}` }) : null));
}

/**
 * One hand: number, contract and contractor, made or failed, and for each side the change
 * and the running score; the number links to the hand's replay when there is one.
 * @param {object} hand a HandResult dict
 * @param {Array<object>} seats
 * @param {string|null} replay the address of the hand's replay
 */
function handRow(hand, seats, teams, replay) {
  const result = hand.made === true ? ["made", "✓ made"] : hand.made === false ? ["failed", "✗ failed"] : ["none", ""];
  const who = hand.contractor != null ? seatName(seats[hand.contractor], hand.contractor) : "";
  // 500 names the contract ("7H"); 1000 gives the bet in points (and whether it was blind).
  const bid = hand.contract ? contractText(hand.contract)
    : hand.bet != null ? `${hand.bet}${hand.blind ? " blind" : ""}` : null;
  const contract = bid ? `${bid} · ${who}` : "All passed";
  const side = (i) => {
    const points = hand.points?.[i] ?? 0;
    return el("td", { class: "score-cell" },
      el("span", { class: `delta ${points > 0 ? "up" : points < 0 ? "down" : "zero"}`,
        text: points ? signed(points) : "0" }),
      el("span", { class: "running", text: hand.scores ? score(hand.scores[i]) : "" }));
  };
  return el("tr", { class: `hand-row ${result[0]}`, title: hand.summary || "" },
    el("td", { class: "hand-number" }, replay
      ? el("a", { href: replay, "data-testid": "hand-replay", title: `Replay hand ${hand.number}`, text: `▶ ${hand.number}` })
      : String(hand.number)),
    el("td", { class: "hand-contract" },
      el("span", { text: contract }),
      result[1] ? el("span", { class: `result ${result[0]}`, text: result[1] }) : null),
    ...teams.map((_, i) => side(i)));
}

/**
 * A bid's text made readable: "7H" → "7♥", "8NT" → "8 NT", "open-misere" → "Open misere".
 * @param {string} bid
 */
export function contractText(bid) {
  const match = /^(\d+)(S|C|D|H|NT)$/i.exec(bid);
  if (match) {
    const strain = match[2].toUpperCase();
    return `${match[1]}${SUIT_SYMBOLS[strain] || " NT"}`;
  }
  const words = bid.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A line per side through its score after each hand of the current match, starting at 0,
 * with the zero line and the target.
 * @param {Array<object>} hands the current match's HandResult dicts
 * @param {string[]} names
 * @param {number|undefined} target
 */
function chart(hands, names, target, teams) {
  const series = teams.map((_, side) => [0, ...hands.map((h) => h.scores?.[side] ?? 0)]);
  const values = series.flat().concat(target ? [target] : []);
  const description = hands.length
    ? `Scores after hand ${hands.length}: ${names.map((name, i) => `${name} ${score(series[i].at(-1))}`).join(", ")}`
    : "No hands scored yet in this match";
  const picture = lineChart({
    series: series.map((points, side) => ({
      values: points,
      className: `team-${side}`,
      title: (i) => (i ? `${names[side]}: ${score(points[i])} after hand ${hands[i - 1].number}` : null),
    })),
    range: [Math.min(0, ...values), Math.max(100, ...values)],
    guides: [{ value: 0, className: "chart-zero", label: "0" },
      ...(target ? [{ value: target, className: "chart-target", label: String(target) }] : [])],
    endLabel: hands.length ? `hand ${hands.length}` : "",
    description,
  });

  return el("figure", { class: "score-chart", "data-testid": "score-chart" },
    picture,
    el("figcaption", { class: "chart-legend" },
      ...teams.map((_, side) => el("span", { class: `legend team-${side}`, text: teams.length === 2 && teams[0].length > 1 ? sideLabel(teams, side) : names[side] }))));
}
