/**
 * The table for 500: the shared {@link TableView} (seats around the felt for three to six
 * players, the hand, the bid grid, the kitty exchange, the trick, the clock) with the steps
 * only some 500 rules have.
 *
 * - Five players: after the kitty the contractor calls a partner (two on a bid of eight or
 *   more) by naming a card it does not hold: a grid of the cards, the legal ones enabled.
 *   The called cards stay on the contract line; partners get a badge once known.
 * - Naming the joker's suit before the first lead of a no-trumps contract (`joker H`, or
 *   `pass` to keep it the only trump).
 * - Calling slam instead of discarding (`slam`), and calling a misdeal with no face card
 *   (`misdeal`), offered only when the server lists them as legal.
 *
 * Like the rest of the client it decides no legality: every button is a legal action's text.
 *
 * @module five_hundred
 */

import { TableView, esc } from "./table.js";
import { SUITS, cardName } from "./cards.js";

/** Ranks in the order the call grid shows them, highest first (11–13: six-handed deck). */
const CALL_RANKS = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
/** Suits in the call grid, top to bottom. */
const CALL_SUITS = ["S", "C", "D", "H"];

/** A card as short HTML: "A♠" with the suit in its colour. */
function cardHTML(card) {
  if (card.startsWith("JK")) return card === "JK2" ? "Black joker" : "Joker";
  const suit = SUITS[card.slice(-1)];
  return `${esc(card.slice(0, -1))}<span class="ct-suit ct-${suit.colour}">${suit.symbol}</span>`;
}

/** The panels 500 adds to the felt's overlay. */
function panels() {
  const suit = (s) => `<button type="button" class="ct-joker-suit ct-${SUITS[s].colour}" data-testid="nominate-suit" data-suit="${s}" title="${SUITS[s].name}">${SUITS[s].symbol}</button>`;
  return `
    <div class="ct-panel ct-call" data-testid="call-panel" role="dialog" aria-label="Call a partner" hidden>
      <div class="ct-panel-title"></div>
      <div class="ct-call-grid" data-testid="call-grid"></div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button ct-primary" data-testid="call-submit" disabled>Call</button>
      </div>
    </div>
    <div class="ct-panel ct-nominate" data-testid="joker-nominate" role="dialog" aria-label="Name the joker's suit" hidden>
      <div class="ct-panel-title">Name a suit for the joker?</div>
      <div class="muted small ct-nominate-help">It becomes that suit's highest card and is no longer a trump.</div>
      <div class="ct-joker-suits">${CALL_SUITS.map(suit).join("")}</div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button" data-testid="nominate-pass">Keep it the only trump</button>
      </div>
    </div>`;
}

export class FiveHundredTableView extends TableView {
  constructor(root, ctx) {
    super(root, ctx);
    /** The card selected in the call grid. */
    this.callChoice = null;
    this.callKey = "";
    const q = (selector) => this.root.querySelector(selector);
    q(".ct-overlay").insertAdjacentHTML("beforeend", panels());
    this.el.discard.insertAdjacentHTML("beforebegin",
      `<button type="button" class="ct-button" data-testid="slam" hidden title="Partner passes you a card and folds; you must take all ten tricks">Call slam</button>`);
    this.el.pass.insertAdjacentHTML("beforebegin",
      `<button type="button" class="ct-button" data-testid="misdeal" hidden title="You hold no face card: ask for a new deal">Misdeal</button>`);
    Object.assign(this.el, {
      call: q("[data-testid=call-panel]"), callTitle: q(".ct-call .ct-panel-title"),
      callGrid: q("[data-testid=call-grid]"), callSubmit: q("[data-testid=call-submit]"),
      nominate: q("[data-testid=joker-nominate]"), slam: q("[data-testid=slam]"),
      misdeal: q("[data-testid=misdeal]"),
    });
    this.bindFiveHundred();
  }

  /** Listeners of the panels and buttons this module adds. */
  bindFiveHundred() {
    const { el } = this;
    el.callGrid.addEventListener("click", (event) => {
      const button = event.target.closest("[data-card]");
      if (!button || button.disabled) return;
      this.callChoice = this.callChoice === button.dataset.card ? null : button.dataset.card;
      this.renderCall();
    });
    el.callSubmit.addEventListener("click", () => {
      if (this.callChoice) this.act(`call ${this.callChoice}`);
    });
    el.nominate.addEventListener("click", (event) => {
      const button = event.target.closest("[data-suit]");
      if (button && !button.disabled) this.act(`joker ${button.dataset.suit}`);
    });
    el.nominate.querySelector("[data-testid=nominate-pass]").addEventListener("click", () => this.act("pass"));
    el.slam.addEventListener("click", () => this.act("slam"));
    el.misdeal.addEventListener("click", () => this.act("misdeal"));
  }

  update(message) {
    super.update(message);
    this.renderCall();
    this.renderNominate();
    this.renderExtras();
  }

  /** My legal actions now. */
  legal() {
    return new Set((this.view && this.view.legal_actions) || []);
  }

  /** Cards the contractor names this hand: two on a bid of eight or more. */
  callsWanted() {
    const bid = this.view && this.view.contract ? this.view.contract.bid : "";
    const match = /^(\d+)/.exec(bid || "");
    return match && Number(match[1]) >= 8 ? 2 : 1;
  }

  phaseStatus(view, mine, who) {
    if (view.phase === "call") {
      const wanted = this.callsWanted();
      const left = wanted - view.called.length;
      if (mine) {
        return left === 2 ? "Call two partners: name two cards you do not hold"
          : `Call ${wanted === 2 ? "your second" : "a"} partner: name a card you do not hold`;
      }
      return `${who} is calling ${wanted === 2 ? "partners" : "a partner"}`;
    }
    if (view.phase === "joker") {
      return mine ? "Name a suit for the joker, or keep it the only trump" : `${who} is deciding about the joker`;
    }
    if (view.phase === "give" && view.contract && view.contract.slam) {
      return mine ? "Slam! Pass one card to your partner" : `${who} is passing a card for the slam`;
    }
    if (view.phase === "bidding" && mine && view.barred === this.mySeat) {
      return "You were set by three tricks or more: you may only pass this hand";
    }
    return super.phaseStatus(view, mine, who);
  }

  /** The contract line, plus the called cards, the partners once known, slam and the joker. */
  renderContract() {
    super.renderContract();
    const view = this.view;
    if (!view || !view.contract) return;
    const extra = [];
    if (view.called && view.called.length) {
      const partners = (view.partners || []).map((seat) => esc(this.whoIs(seat))).join(", ");
      extra.push(`<span class="ct-called" data-testid="called">Called ${view.called.map(cardHTML).join(" ")}`
        + `${partners ? ` · partner${view.partners.length === 1 ? "" : "s"}: ${partners}` : ""}</span>`);
    }
    if (view.contract.slam) extra.push(`<span class="ct-side-badge" data-testid="slam-called">Slam</span>`);
    const jokerSuit = view.contract.joker_suit;
    if (jokerSuit) {
      extra.push(`<span data-testid="joker-suit-named">Joker: highest <span class="ct-suit ct-${SUITS[jokerSuit].colour}">${SUITS[jokerSuit].symbol}</span></span>`);
    }
    if (extra.length) this.el.contract.insertAdjacentHTML("beforeend", extra.join(""));
  }

  /** Nameplates, plus a badge on partners known to play for the contract (five players). */
  renderSeats() {
    super.renderSeats();
    const view = this.view;
    const partners = new Set((view && view.players === 5 && view.partners) || []);
    for (let seat = 0; seat < this.seatCount(); seat++) {
      const plate = this.seatElement(seat).querySelector(".ct-plate");
      let badge = plate.querySelector(".ct-side-badge");
      if (partners.has(seat)) {
        if (!badge) {
          badge = document.createElement("span");
          badge.className = "ct-side-badge";
          badge.dataset.testid = "partner-badge";
          badge.textContent = "partner";
          plate.append(badge);
        }
        badge.classList.remove(...[0, 1, 2, 3, 4, 5].map((t) => `team-${t}`));
        badge.classList.add(`team-${this.teamOf(view.contract.contractor)}`);
      } else if (badge) {
        badge.remove();
      }
    }
  }

  /** The partner call: every card of the deck, those I may name enabled. */
  renderCall() {
    const { el } = this;
    const view = this.view;
    const show = Boolean(view) && this.isMyTurn() && view.phase === "call";
    el.call.hidden = !show;
    if (!show) {
      this.callChoice = null;
      return;
    }
    const legal = this.legal();
    const callable = [...legal].filter((a) => a.startsWith("call ")).map((a) => a.slice(5));
    const cards = new Set([...callable, ...(view.hand || []), ...(view.called || [])]);
    const ranks = CALL_RANKS.filter((rank) => CALL_SUITS.some((s) => cards.has(`${rank}${s}`)));
    const key = `${view.hand_number}:${ranks.join(",")}:${[...legal].sort().join(",")}`;
    if (key !== this.callKey) {
      this.callKey = key;
      const button = (card, label) => `<button type="button" class="ct-call-card ${card.startsWith("JK") ? "ct-call-joker" : `ct-${SUITS[card.slice(-1)].colour}`}" data-testid="call-card" data-card="${esc(card)}" aria-label="${esc(cardName(card))}" aria-pressed="false" ${legal.has(`call ${card}`) ? "" : "disabled"}>${label}</button>`;
      const rows = CALL_SUITS.map((s) => `<span class="ct-suit ct-${SUITS[s].colour}">${SUITS[s].symbol}</span>`
        + ranks.map((rank) => (cards.has(`${rank}${s}`) ? button(`${rank}${s}`, esc(rank)) : "<span></span>")).join("")).join("");
      const jokers = ["JK", "JK2"].filter((c) => cards.has(c));
      const jokerRow = jokers.length ? `<span></span>${jokers.map((c) => button(c, c === "JK2" ? "Black joker" : "Joker")).join("")}` : "";
      el.callGrid.style.setProperty("--ranks", String(ranks.length));
      el.callGrid.innerHTML = rows + jokerRow;
    }
    if (this.callChoice && !legal.has(`call ${this.callChoice}`)) this.callChoice = null;
    for (const button of el.callGrid.querySelectorAll("[data-card]")) {
      const selected = button.dataset.card === this.callChoice;
      button.classList.toggle("selected", selected);
      button.setAttribute("aria-pressed", String(selected));
    }
    const wanted = this.callsWanted();
    el.callTitle.textContent = wanted === 2
      ? `Call a partner by a card you do not hold (${view.called.length + 1} of 2)`
      : "Call a partner by a card you do not hold";
    el.callSubmit.disabled = !this.callChoice;
    el.callSubmit.innerHTML = this.callChoice ? `Call ${cardHTML(this.callChoice)}` : "Call";
  }

  /** Naming the joker's suit before the first lead of a no-trumps contract. */
  renderNominate() {
    const { el } = this;
    const view = this.view;
    const show = Boolean(view) && this.isMyTurn() && view.phase === "joker";
    el.nominate.hidden = !show;
    if (!show) return;
    const legal = this.legal();
    for (const button of el.nominate.querySelectorAll("[data-suit]")) {
      button.disabled = !legal.has(`joker ${button.dataset.suit}`);
    }
  }

  /** Slam and misdeal buttons, shown only while the server lists them as legal. */
  renderExtras() {
    const legal = this.legal();
    this.el.slam.hidden = !legal.has("slam");
    this.el.misdeal.hidden = !legal.has("misdeal");
  }
}
