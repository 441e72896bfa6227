/**
 * What a game adds to the shared {@link TableView}: the one interface each game's browser
 * module implements (five_hundred.js, thousand.js), with game-neutral defaults, so that a game
 * overrides only what it does differently and the table never asks which game it shows.
 *
 * The table builds one `GameWidgets` (the game's subclass) after its own markup and calls:
 *
 * - the constructor: add the game's panels and buttons to `table.root`, and their listeners;
 * - on every `table` message: `sync()` before anything is drawn (drop choices the new state
 *   no longer allows), then the shared parts, then `render(events)` for the game's panels;
 * - for the seats: `name`, `handSize`, `teams()`, `isSittingOut(seat)`, `seatBidHTML(entry)`,
 *   `seatTricksText(seat)`; for the score panel, `scoreTags(side)`;
 * - for the bar: `phaseStatus(view, mine, who)` and `contractHTML(view)`;
 * - for my hand: `handCards(cards)`, `isPlayable(card)`, `selectedCard()` and
 *   `onCardClick(card, area)`; for the keyboard, `turnFocus()` (where my turn is taken);
 * - at the end of a hand: `endedView(view, events)` (the view drawn as the hand ended) and
 *   `resultHTML(scored, over, events)` (the default builds on `verdictHTML(scored)`);
 * - for the news of a message, on the table and in a replay's step line: `newsText(events)`;
 * - `reset()` when the view shows another table, `destroy()` when it goes.
 *
 * A game's widgets use the table's own parts through `this.table` (its `view`, `message`,
 * `mySeat`, `el`, `act`, `isMyTurn`, `legal`, `nameOf`, `renderHand`, `fillCards`, …). A game's
 * module registers in table_games.js.
 *
 * @module game_widgets
 */

import { esc, signed, score } from "./markup.js";

/**
 * The sides when neither the view nor the message names them: partners across at four
 * seats, else each seat for itself.
 * @param {number} count seats at the table
 */
export function defaultTeams(count) {
  return count === 4 ? [[0, 2], [1, 3]] : Array.from({ length: count }, (_, seat) => [seat]);
}

export class GameWidgets {
  /** The game, as the table message's `game` names it ("" for the plain table). */
  name = "";
  /** Cards each player holds before a deal (backs drawn while waiting for the match). */
  handSize = 10;

  /** @param {import("./table.js").TableView} table the table these widgets belong to */
  constructor(table) {
    this.table = table;
  }

  // -- the life of the widgets -----------------------------------------------------------------

  /** A new message is in (`table.view`): forget local choices it no longer allows. */
  sync() {}

  /**
   * Draw the game's panels for the message just shown, after the shared parts.
   * @param {object[]} events the message's events (for news shown once)
   */
  render(events) {}

  /** The view now shows another table: forget everything chosen at the last one. */
  reset() {}

  /** The view goes: stop the game's own timers. */
  destroy() {}

  // -- seats -----------------------------------------------------------------------------------

  /** The sides' seats: the view's, else the message's, else partners across at four seats. */
  teams() {
    const { view, message } = this.table;
    const given = (view && view.teams) || (message && message.teams);
    return given || defaultTeams(this.table.seatCount());
  }

  /**
   * Marks by a side's score in the score panel (scores.js), each
   * `{text, title, kind, testid}`: none by default.
   * @param {number} side an index of `teams()`
   */
  scoreTags(side) {
    return [];
  }

  /** Whether a seat takes no part in this hand (drawn faded). */
  isSittingOut(seat) {
    return false;
  }

  /** A seat's last bid on its nameplate (a `view.bidding` entry). */
  seatBidHTML(entry) {
    return entry.bid === "pass" ? "Pass" : esc(entry.bid);
  }

  /** The tricks a seat has won, once the bidding is over ("3 tricks"); "" to hide. */
  seatTricksText(seat) {
    const view = this.table.view;
    if (!view || view.phase === "bidding") return "";
    return `${view.tricks_won[seat]} trick${view.tricks_won[seat] === 1 ? "" : "s"}`;
  }

  // -- the bar ---------------------------------------------------------------------------------

  /**
   * The status sentence during a game: `mine` when it is my turn, `who` the name of the seat
   * to act. A game words its own phases and falls back on this.
   */
  phaseStatus(view, mine, who) {
    switch (view.phase) {
      case "bidding":
        return mine ? "Your turn to bid" : `Waiting for ${who} to bid`;
      case "play":
        return mine ? "Your turn to play" : `Waiting for ${who} to play`;
      case "over":
        return view.winner === null || view.winner === undefined ? "The match is over"
          : `${this.table.sideName(view.winner)} won the match. A new match starts shortly.`;
      default:
        return mine ? "Your turn" : `Waiting for ${who}`;
    }
  }

  /** The contract line's HTML: here only the score. */
  contractHTML(view) {
    return this.scoresHTML(view);
  }

  /** Each side's score in its colour: "120 : −40". */
  scoresHTML(view) {
    return `<span class="ct-scores" title="Score">${view.scores.map((s, team) =>
      `<span class="team-${team}">${score(s)}</span>`).join('<span class="ct-sep">:</span>')}</span>`;
  }

  // -- my hand ---------------------------------------------------------------------------------

  /** The cards drawn in my hand, of those I hold (a panel may hold some of them). */
  handCards(cards) {
    return cards;
  }

  /** Whether a card of mine takes part in a legal action now: "play X", "play X:S" … */
  isPlayable(card) {
    return this.table.legal().some((action) => action === `play ${card}`
      || action.startsWith(`play ${card}:`) || action.startsWith(`play ${card} `));
  }

  /**
   * Where the keyboard's focus goes when my turn comes: the first enabled button of a panel
   * on show, else the first card of my hand I may play, else my first card.
   * @returns {HTMLElement|null}
   */
  turnFocus() {
    const { el } = this.table;
    for (const panel of el.overlay.querySelectorAll(".ct-panel:not([hidden])")) {
      const button = panel.querySelector("button:enabled:not([hidden])");
      if (button) return button;
    }
    return el.hand.querySelector(".ct-card.playable") || el.hand.querySelector("button.ct-card");
  }

  /** The card selected in a card area, as `{card, area}`, or null. */
  selectedCard() {
    return null;
  }

  /**
   * A click on one of my cards (`area`: "hand", or the name a game gave its own card area).
   * @param {string} card
   * @param {string} area
   */
  onCardClick(card, area) {
    this.table.act(`play ${card}`);
  }

  // -- news ----------------------------------------------------------------------------------

  /**
   * What a message's events say in words that the table does not show otherwise ("" for
   * nothing): the table shows it as news, a replay in its step line.
   * @param {object[]} events
   */
  newsText(events) {
    return "";
  }

  // -- the end of a hand -----------------------------------------------------------------------

  /**
   * The view drawn as a hand ended (hand_end.js `handAsItEnded` made it from the view shown
   * before and the events that ended the hand): here as it is.
   * @param {object} view
   * @param {object[]} events
   */
  endedView(view, events) {
    return view;
  }

  /**
   * The end-of-hand frame's HTML: the verdict, each side's points and the running score; at
   * the end of a match, the winners.
   * @param {object|undefined} scored the `hand_scored` event
   * @param {object|undefined} over the `match_over` event
   * @param {object[]} [events] the events of the message that ended the hand
   */
  resultHTML(scored, over, events = []) {
    const table = this.table;
    const parts = [];
    if (scored) {
      const verdict = this.verdictHTML(scored);
      parts.push(`<div class="ct-result-title">${verdict}</div>`);
      const sides = this.teams().map((_, team) => team);
      parts.push(`<div class="ct-result-points">${sides.map((team) =>
        `<span class="team-${team}">${esc(table.sideName(team, " & "))} <b>${signed(scored.points[team])}</b></span>`).join("")}</div>`);
      parts.push(`<div class="ct-result-score">Score: ${sides.map((team) =>
        `<span class="team-${team}">${esc(table.sideName(team, " & "))} <b>${score(scored.scores[team])}</b></span>`).join(" · ")}</div>`);
      // The summary in small print, unless the verdict above already said it in full.
      if (scored.summary && !verdict.includes(esc(scored.summary))) {
        parts.push(`<div class="ct-result-summary">${esc(scored.summary)}</div>`);
      }
    }
    if (over) {
      const winner = over.winner;
      const text = winner === null || winner === undefined ? "The match is over."
        : over.scores.length === 2
          ? `${table.sideName(winner)} win the match, ${score(over.scores[winner])} to ${score(over.scores[1 - winner])}!`
          : `${table.sideName(winner)} win the match with ${score(over.scores[winner])}!`;
      parts.push(`<div class="ct-result-match">${esc(text)} A new match starts in a moment.</div>`);
    }
    return parts.join("");
  }

  /** The result's title line: here the hand's summary. */
  verdictHTML(scored) {
    return esc(scored.summary || "The hand is over.");
  }
}
