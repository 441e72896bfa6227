/**
 * The end of a hand, and of a match, at the table (table.js), whatever the game: the message
 * that ends a hand already holds the next deal, so it is held back. The table shows the hand
 * as it ended (its last trick, then the result in the middle: the game's verdict, the points,
 * the running score, or the winners of the match) and the next deal only once the result has
 * been read (`RESULT_MS`, or a click or a key): the next deal never appears under it.
 *
 * @module hand_end
 */

/** How long the end of a hand, and of a match, stays on screen before the next deal is shown
 * (ms), unless a click or a key goes on sooner: long enough to read the verdict. */
const RESULT_MS = 6000;
const MATCH_RESULT_MS = 10000;
/** The phase of a view drawn as its hand ended (`handAsItEnded`), which no engine sends. */
const SCORED = "scored";

export class HandEnd {
  /** @param {import("./table.js").TableView} table the table it paces */
  constructor(table) {
    this.table = table;
    this.result = table.el.result;
    /** While the end of a hand is on show: the latest message held back, and the events of
     * the messages after the one that ended the hand. */
    this.held = null;
    this.timer = 0;
    this.result.addEventListener("click", () => this.release());
    this.onKey = (event) => {
      if (!this.held || this.result.hidden || event.repeat) return;
      // The key puts the result away and does nothing else (an Enter must not also press
      // the button it was on), except in a text field, where it is typed as well.
      const target = event.target;
      const typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (!typing) event.preventDefault();
      this.release();
    };
    document.addEventListener("keydown", this.onKey);
  }

  /**
   * Take a new message if it must wait or end a hand: true when it is held (the table draws
   * nothing more of it now), false when the table should draw it as usual.
   * @param {object} message
   */
  take(message) {
    const events = message.events || [];
    if (this.held) {
      this.held.message = message;
      this.held.events.push(...events);
      return true;
    }
    if (!this.table.view || !endsHand(events) || document.hidden) return false;
    this.held = { message, events: [], over: events.some((e) => e.type === "match_over") };
    this.table.draw({ ...message, view: handAsItEnded(this.table.view, events, this.table.game) }, events);
    return true;
  }

  /** Put the result away and draw what came while it was on show. */
  release() {
    clearTimeout(this.timer);
    this.result.hidden = true;
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.table.draw(held.message, held.events);
  }

  /** The status line while the end is on show (null otherwise). */
  statusText() {
    if (!this.held) return this.table.view?.phase === SCORED ? "The hand is over" : null;
    const challenge = this.challengeDeal();
    if (challenge && this.held.over) {
      return challenge.last ? "That was the challenge's last deal" : "The deal is over: the next one follows";
    }
    return this.held.over ? "The match is over: a new one follows" : "The hand is over: the next deal follows";
  }

  /**
   * At a daily challenge's table (each deal a match of its own), which deal this is and
   * whether it is the last; null at any other table.
   * @returns {{deal: number, deals: number, last: boolean}|null}
   */
  challengeDeal() {
    const deals = this.table.challenge?.()?.deals;
    if (!deals) return null;
    const deal = this.table.message?.match_number || 0;
    return { deal, deals, last: deal >= deals };
  }

  /** Show the result once the last trick has been swept, if these events end a hand. */
  render(events) {
    const scored = events.find((e) => e.type === "hand_scored");
    const over = events.find((e) => e.type === "match_over");
    if (scored || over) this.table.whenTrickIdle(() => this.show(scored, over, events));
  }

  /**
   * Seed 004 3.6: in the middle, the game's verdict on the hand, the points and the running
   * score; at the end of a match, the winners. (`events`: the message's, for the game to tell
   * how the hand ended.)
   */
  show(scored, over, events = []) {
    const result = this.result;
    const tap = matchMedia("(pointer: coarse)").matches ? "Tap" : "Click";
    const challenge = this.challengeDeal();
    if (challenge) {
      // A challenge's deal is a match of its own: no winner of a match, no new match.
      const line = challenge.last
        ? "That was the last deal of today's challenge: your result is on the challenge screen."
        : `Deal ${challenge.deal} of ${challenge.deals} is over.`;
      const next = !this.held || challenge.last ? "to close" : "for the next deal";
      result.innerHTML = `${this.table.game.resultHTML(scored, null, events)}`
        + `<div class="ct-result-match">${line}</div><div class="ct-result-next">${tap} ${next}</div>`;
    } else {
      const next = !this.held ? "to close" : over ? "for the new match" : "for the next deal";
      result.innerHTML = `${this.table.game.resultHTML(scored, over, events)}<div class="ct-result-next">${tap} ${next}</div>`;
    }
    result.classList.toggle("made", Boolean(scored && scored.made));
    result.classList.toggle("failed", Boolean(scored && scored.made === false));
    result.classList.toggle("match", Boolean(over));
    result.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), over ? MATCH_RESULT_MS : RESULT_MS);
  }

  /** Forget a held message and the result (another table is shown). */
  reset() {
    this.held = null;
    clearTimeout(this.timer);
    this.result.hidden = true;
  }

  /** Stop the timer and the key listener. */
  destroy() {
    document.removeEventListener("keydown", this.onKey);
    clearTimeout(this.timer);
  }
}

/** Whether a message's events end a hand or a match. */
function endsHand(events) {
  return events.some((e) => e.type === "hand_scored" || e.type === "match_over");
}

/**
 * The view as the hand ended, from the view before its last message: the last trick's cards
 * gone from the hands and counted to its winner, nobody to act, nothing to choose, and the
 * scores after the hand, and each seat's tricks as the result counts them (a hand can end
 * before its last trick is played). (The message's own view already holds the next deal.)
 * The game's widgets add what else the hand's end showed (`endedView`).
 * @param {object} view the view shown before
 * @param {object[]} events the events of the message that ended the hand
 * @param {import("./game_widgets.js").GameWidgets} [game] the table's game widgets
 */
export function handAsItEnded(view, events, game = null) {
  const done = [...events].reverse().find((e) => e.type === "trick");
  const scored = events.find((e) => e.type === "hand_scored");
  const played = new Set(done ? done.cards : []);
  const seats = new Set(done ? done.seats : []);
  const unplayed = (cards) => cards && cards.filter((card) => !played.has(card));
  const openHands = {};
  for (const [seat, cards] of Object.entries(view.open_hands || {})) openHands[seat] = unplayed(cards);
  const counted = scored && Array.isArray(scored.tricks) && view.tricks_won
    && scored.tricks.length === view.tricks_won.length ? scored.tricks : null;
  const ended = {
    ...view, phase: SCORED, to_act: null, legal_actions: [], trick: [],
    hand: unplayed(view.hand),
    hand_sizes: view.hand_sizes.map((count, seat) => (seats.has(seat) ? Math.max(0, count - 1) : count)),
    open_hands: view.open_hands ? openHands : view.open_hands,
    tricks_won: counted || (view.tricks_won && done
      ? view.tricks_won.map((count, seat) => count + (seat === done.winner ? 1 : 0)) : view.tricks_won),
    scores: scored ? scored.scores : view.scores,
  };
  return game ? game.endedView(ended, events) : ended;
}
