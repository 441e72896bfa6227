/**
 * The trick in the middle of the table, whatever the game: each card in front of its player,
 * sliding in from their side; a finished trick held with its winner marked, then swept toward
 * the winner. Other things that should wait for the sweep (the end-of-hand result, news of a
 * declared marriage) queue behind it with `whenIdle`.
 *
 * @module trick
 */

import { cardSVG, cardName, SUITS } from "./cards.js";

/** Animation timings (ms): a card sliding in, a finished trick on show, the sweep. */
const SLIDE_MS = 260;
const TRICK_HOLD_MS = 1000;
const SWEEP_MS = 260;
/** The last trick of a hand stays longer: nothing follows it in a hurry (table.js holds the
 * next deal back until the hand's result has been read). */
const LAST_TRICK_HOLD_MS = 1800;

/** Whether the user asked for less motion. */
function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A trick's card and the suit a led joker named, if any. */
function played(seat, card, index, suit) {
  return { seat, card, nominated: index === 0 && card.startsWith("JK") && SUITS[suit] ? suit : null };
}

export class TrickArea {
  /** @param {import("./table.js").TableView} table the table it is drawn on */
  constructor(table) {
    this.table = table;
    this.area = table.el.trick;
    /** Shown cards by "seat:card:suit", what to show once a finished trick is swept. */
    this.cards = new Map();
    this.busy = false;
    this.next = null;
    this.waiting = [];
    this.timers = new Set();
  }

  /** Whether to animate (the page is visible and motion is welcome). */
  motion() {
    return !document.hidden && !reducedMotion();
  }

  /** The cards of the trick being played, each with the suit a led joker named. */
  current() {
    const view = this.table.view;
    if (!view || !view.trick) return [];
    return view.trick.map((entry, index) => played(entry.seat, entry.card, index, view.led));
  }

  /**
   * Update the trick area. A message with a `trick` event first shows that finished trick
   * (the winner marked) for about a second, then sweeps it toward the winner, then shows the
   * trick now in play; updates arriving meanwhile wait (only the trick area waits: the hand
   * and the buttons are live all the time).
   * @param {object[]} events the message's events
   */
  render(events) {
    const done = [...events].reverse().find((e) => e.type === "trick");
    const current = this.current();
    if (done && !document.hidden) {
      this.next = current;
      this.showFinished(done);
    } else if (this.busy) {
      this.next = current;
    } else {
      this.draw(current, null);
    }
  }

  /** Show a finished trick from its event, hold it, sweep it, then show what is next. */
  showFinished(done) {
    this.cancel();
    this.busy = true;
    this.draw(done.cards.map((card, index) => played(done.seats[index], card, index, done.nominated)), done.winner);
    this.table.sound("trick");
    const motion = this.motion();
    const hold = this.table.held ? LAST_TRICK_HOLD_MS : TRICK_HOLD_MS;
    this.table.later(() => {
      if (motion) this.sweep(done.winner);
      this.table.later(() => this.finish(), motion ? SWEEP_MS : 0, this.timers);
    }, hold + (motion ? SLIDE_MS / 2 : 0), this.timers);
  }

  /** The trick animation is over: show the waiting state and run what waited for it. */
  finish() {
    this.busy = false;
    this.draw(this.next || this.current(), null, false);
    this.next = null;
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }

  /** Run after the finished trick on show is swept (at once if none is). */
  whenIdle(fn) {
    if (this.busy) this.waiting.push(fn);
    else fn();
  }

  /** Where a seat's cards come from and go to on screen: its seat, or my hand. */
  anchorOf(seat) {
    const table = this.table;
    if (seat === table.mySeat && table.el.hand.children.length) return table.el.hand;
    return table.seatElement(seat);
  }

  /**
   * Show these cards in the trick area, each in front of its player; cards not already shown
   * slide in from their player's side.
   * @param {Array<{seat: number, card: string, nominated: string|null}>} cards
   * @param {number|null} winner seat whose card is marked `.winner`
   * @param {boolean} [slide]
   */
  draw(cards, winner, slide = true) {
    const table = this.table;
    const key = (entry) => `${entry.seat}:${entry.card}:${entry.nominated || ""}`;
    const keys = new Set(cards.map(key));
    for (const [shown, element] of this.cards) {
      if (!keys.has(shown)) {
        element.remove();
        this.cards.delete(shown);
      }
    }
    const motion = slide && this.motion();
    cards.forEach((entry, order) => {
      let element = this.cards.get(key(entry));
      const fresh = !element;
      if (fresh) {
        element = document.createElement("div");
        element.className = `ct-played pos-${table.positionOf(entry.seat)}`;
        element.dataset.card = entry.card;
        element.dataset.seat = String(entry.seat);
        element.setAttribute("aria-label", `${table.nameOf(entry.seat)}: ${cardName(entry.card)}${entry.nominated ? ` as ${SUITS[entry.nominated].name}` : ""}`);
        element.innerHTML = cardSVG(entry.card, { nominated: entry.nominated || undefined });
        this.cards.set(key(entry), element);
        this.area.append(element);
      }
      element.style.zIndex = String(order + 1);
      element.classList.toggle("winner", winner !== null && entry.seat === winner);
      if (fresh && motion) this.slideIn(element, entry.seat);
    });
  }

  /** Animate a card from its player's side to its place. */
  slideIn(element, seat) {
    if (!element.animate) return;
    const from = this.anchorOf(seat).getBoundingClientRect();
    const to = element.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    element.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.4 },
      { transform: "none", opacity: 1 },
    ], { duration: SLIDE_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  /** Sweep every card of the trick toward the winner's seat. */
  sweep(winner) {
    const target = this.anchorOf(winner).getBoundingClientRect();
    for (const element of this.cards.values()) {
      if (!element.animate) continue;
      const rect = element.getBoundingClientRect();
      const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
      const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
      element.animate([
        { transform: "none", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 },
      ], { duration: SWEEP_MS, easing: "ease-in", fill: "forwards" });
    }
  }

  /** Stop the animation's timers. */
  cancel() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
