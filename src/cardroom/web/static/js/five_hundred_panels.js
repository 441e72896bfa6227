/**
 * 500's panels on the table (five_hundred.js puts them together):
 *
 * - `BidGrid`: the grid of every bid (tricks by strain, then the special bids by name), Bye,
 *   Bid, and Misdeal while it is legal; a long press shows a bid's value on touch screens.
 * - `KittyExchange`: the kitty in the middle, swapped card for card with my hand, then
 *   Discard; Call slam while it is legal.
 * - `JokerLead`: leading the joker in no trumps asks which suit it stands for.
 * - `PartnerCall`: five players, the contractor names a card it does not hold.
 * - `JokerNominate`: naming the joker's suit before the first lead of a no-trumps contract.
 *
 * Each builds its markup once, into the shared table's overlay, and redraws from
 * `table.view` in `render()`. None decides legality: every button is a legal action's text.
 *
 * @module five_hundred_panels
 */

import { SUITS, cardName } from "./cards.js";
import { esc, suitHTML } from "./markup.js";

/** Columns of the bidding grid, lowest suit first (J5 no trumps only when the ladder has it). */
const BID_COLUMNS = ["S", "C", "D", "H", "NT", "J5"];
/** A trick bid's text: tricks and strain (J5: no trumps with the jacks on top). */
export const TRICK_BID = /^(\d+)(S|C|D|H|NT|J5)$/;
/** Press this long on a bid to see its value on a touch screen (ms). */
const LONG_PRESS_MS = 450;
/** Ranks in the order the call grid shows them, highest first (11–13: six-handed deck). */
const CALL_RANKS = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
/** Suits in the call grid and the joker's pickers, top to bottom. */
const CALL_SUITS = ["S", "C", "D", "H"];

/**
 * A bid as short HTML: "7♥" with the suit in its colour, "8NT", or the special bid's name.
 * @param {string} text bid text ("7H", "misere", "pass")
 * @param {Array<{bid: string, name: string}>} [ladder] names of the special bids
 */
export function bidHTML(text, ladder = []) {
  if (text === "pass") return "Bye";
  const match = TRICK_BID.exec(text || "");
  if (match) {
    const [, tricks, strain] = match;
    if (strain === "NT" || strain === "J5") return `${tricks}<span class="ct-nt">${strain}</span>`;
    return `${tricks}${suitHTML(strain)}`;
  }
  return esc(specialName(text, ladder));
}

/** A special bid's display name: the ladder's name, capitalised, else the text. */
function specialName(text, ladder) {
  const entry = ladder.find((e) => e.bid === text);
  const name = entry ? entry.name : String(text).replace(/-/g, " ");
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A card as short HTML: "A♠" with the suit in its colour. */
export function cardHTML(card) {
  if (card.startsWith("JK")) return card === "JK2" ? "Black joker" : "Joker";
  return `${esc(card.slice(0, -1))}${suitHTML(card.slice(-1))}`;
}

/** A set of my legal actions now. */
function legalSet(table) {
  return new Set(table.legal());
}

/** Add markup at the end of an element and return its last element child. */
export function append(parent, html) {
  parent.insertAdjacentHTML("beforeend", html);
  return parent.lastElementChild;
}

// -- bidding -----------------------------------------------------------------------------------

export class BidGrid {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    /** Bid selected in the grid, and the ladder the grid was built for. */
    this.selected = null;
    this.gridKey = "";
    this.pressTimer = 0;
    this.tipTimer = 0;
    this.panel = append(table.el.overlay, `<div class="ct-bidding ct-panel" hidden>
          <div class="ct-panel-title">Your bid</div>
          <div class="ct-bid-grid" data-testid="bid-grid"></div>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="misdeal" hidden title="You hold no face card: ask for a new deal">Misdeal</button>
            <button type="button" class="ct-button" data-testid="pass">Bye</button>
            <button type="button" class="ct-button ct-primary" data-testid="bid-submit" disabled>Bid</button>
          </div>
        </div>`);
    this.tip = append(table.el.felt, `<div class="ct-tip" role="tooltip" hidden></div>`);
    const q = (selector) => this.panel.querySelector(selector);
    this.grid = q("[data-testid=bid-grid]");
    this.pass = q("[data-testid=pass]");
    this.submit = q("[data-testid=bid-submit]");
    this.misdeal = q("[data-testid=misdeal]");
    this.grid.addEventListener("click", (event) => {
      const button = event.target.closest("[data-bid]");
      if (!button || button.disabled) return;
      this.selected = this.selected === button.dataset.bid ? null : button.dataset.bid;
      this.render();
      // Chosen with the keyboard (Enter or Space): the next Enter bids it.
      if (event.detail === 0 && this.selected) this.submit.focus();
    });
    this.grid.addEventListener("keydown", (event) => this.arrowKey(event));
    // The next touch or click anywhere puts a tip away at once (before a new press starts one).
    this.onAnyPress = () => this.hideTip();
    document.addEventListener("pointerdown", this.onAnyPress, true);
    this.grid.addEventListener("pointerdown", (event) => this.startLongPress(event));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      this.grid.addEventListener(type, () => this.endLongPress());
    }
    this.submit.addEventListener("click", () => {
      if (this.selected) table.act(`bid ${this.selected}`);
    });
    this.pass.addEventListener("click", () => table.act("pass"));
    this.misdeal.addEventListener("click", () => table.act("misdeal"));
  }

  /** The grid on my turn to bid; Misdeal while the server lists it as legal. */
  render() {
    this.hideTip(); // what it explained may have changed or gone
    const view = this.table.view;
    const legal = legalSet(this.table);
    this.misdeal.hidden = !legal.has("misdeal");
    const show = this.table.isMyTurn() && view.phase === "bidding";
    this.panel.hidden = !show;
    if (!show) {
      this.selected = null;
      return;
    }
    const ladder = view.ladder || [];
    const key = ladder.map((e) => `${e.bid}=${e.value}`).join(",");
    if (key !== this.gridKey) {
      this.gridKey = key;
      this.grid.innerHTML = gridHTML(ladder);
      const tricks = this.grid.querySelector(".ct-grid-tricks");
      // Set through the CSSOM: a style attribute in markup breaks the page's CSP.
      if (tricks) tricks.style.setProperty("--columns", tricks.dataset.columns);
    }
    const highIndex = view.high_bid ? ladder.findIndex((e) => e.bid === view.high_bid.bid) : -1;
    if (this.selected && !legal.has(`bid ${this.selected}`)) this.selected = null;
    ladder.forEach((entry, index) => {
      const button = this.grid.querySelector(`[data-bid="${CSS.escape(entry.bid)}"]`);
      if (!button) return;
      button.disabled = !legal.has(`bid ${entry.bid}`);
      button.classList.toggle("crossed", index <= highIndex);
      const selected = entry.bid === this.selected;
      button.classList.toggle("selected", selected);
      button.setAttribute("aria-pressed", String(selected));
    });
    this.rove();
    this.submit.disabled = !this.selected;
    this.submit.innerHTML = this.selected ? `Bid ${bidHTML(this.selected, ladder)}` : "Bid";
    this.pass.title = legal.has("pass") ? "Go bye: pass for the rest of this hand" : "You may not pass now";
  }

  /** The enabled bids, in the grid's order (tricks row by row, then the special bids). */
  enabledBids() {
    return [...this.grid.querySelectorAll("[data-bid]:enabled")];
  }

  /** The bid the keyboard enters the grid on: the one chosen, else the lowest I may bid. */
  current() {
    const chosen = this.selected && this.grid.querySelector(`[data-bid="${CSS.escape(this.selected)}"]:enabled`);
    return chosen || this.enabledBids()[0] || null;
  }

  /** One stop for Tab in the grid (the current bid); arrow keys move between the bids. */
  rove() {
    const current = this.current();
    for (const button of this.grid.querySelectorAll("[data-bid]")) {
      button.tabIndex = button === current ? 0 : -1;
    }
  }

  /**
   * Arrow keys in the grid: left and right to the previous or next bid I may make, up and
   * down to the same suit a trick lower or higher (else the previous or next bid).
   * @param {KeyboardEvent} event
   */
  arrowKey(event) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const from = event.target.closest("[data-bid]");
    const bids = this.enabledBids();
    if (!step || !from || !bids.length) return;
    event.preventDefault();
    let target = null;
    const trick = TRICK_BID.exec(from.dataset.bid);
    if (trick && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
      const above = this.grid.querySelector(`[data-bid="${Number(trick[1]) + step}${trick[2]}"]:enabled`);
      target = above;
    }
    if (!target) {
      const index = bids.indexOf(from);
      target = bids[index < 0 ? 0 : (index + step + bids.length) % bids.length];
    }
    for (const button of bids) button.tabIndex = button === target ? 0 : -1;
    target.focus();
  }

  /** On touch screens a long press on a bid shows its value (its `title`). */
  startLongPress(event) {
    const button = event.target.closest("[data-bid]");
    this.endLongPress();
    if (!button || event.pointerType === "mouse") return;
    this.pressTimer = setTimeout(() => {
      const tip = this.tip;
      tip.textContent = button.title;
      tip.hidden = false;
      const felt = this.table.el.felt.getBoundingClientRect();
      const rect = button.getBoundingClientRect();
      tip.style.left = `${Math.max(4, rect.left - felt.left + rect.width / 2 - tip.offsetWidth / 2)}px`;
      tip.style.top = `${rect.top - felt.top - tip.offsetHeight - 6}px`;
    }, LONG_PRESS_MS);
  }

  /** The finger is lifted: hide the long-press tip a moment later, so it can be read. */
  endLongPress() {
    clearTimeout(this.pressTimer);
    if (!this.tip.hidden && !this.tipTimer) this.tipTimer = setTimeout(() => this.hideTip(), 1200);
  }

  /** Hide the long-press tip now. */
  hideTip() {
    clearTimeout(this.tipTimer);
    this.tipTimer = 0;
    this.tip.hidden = true;
  }

  /** Forget the selection (another table). */
  reset() {
    this.selected = null;
  }

  /** Stop the long press's timers and the listener for the next press. */
  destroy() {
    clearTimeout(this.pressTimer);
    this.hideTip();
    document.removeEventListener("pointerdown", this.onAnyPress, true);
  }
}

/** The grid's HTML: tricks 6–10 by strain, then the special bids by name. */
function gridHTML(ladder) {
  const button = (entry, label) => `<button type="button" class="ct-bid" data-bid="${esc(entry.bid)}" title="${esc(`${entry.name}: ${entry.value} points`)}" aria-pressed="false"><span class="ct-bid-label">${label}</span><span class="ct-bid-value">${entry.value}</span></button>`;
  const byText = new Map(ladder.map((e) => [e.bid, e]));
  const trickBids = ladder.map((e) => TRICK_BID.exec(e.bid)).filter(Boolean);
  const levels = [...new Set(trickBids.map((m) => Number(m[1])))].sort((a, b) => a - b);
  const strains = new Set(trickBids.map((m) => m[2]));
  const columns = BID_COLUMNS.filter((s) => strains.has(s));
  const head = `<span class="ct-grid-corner"></span>` + columns.map((s) =>
    (s === "NT" || s === "J5" ? `<span class="ct-grid-head" title="${s === "J5" ? "J5 no trumps: each jack above its ace" : "No trumps"}">${s}</span>` : `<span class="ct-grid-head ct-suit ct-${SUITS[s].colour} ct-suit-${s}" title="${SUITS[s].name}">${SUITS[s].symbol}</span>`)).join("");
  const rows = levels.map((level) => `<span class="ct-grid-level">${level}</span>` + columns.map((s) => {
    const entry = byText.get(`${level}${s}`);
    return entry ? button(entry, bidHTML(entry.bid)) : `<span></span>`;
  }).join("")).join("");
  const specials = ladder.filter((e) => !TRICK_BID.test(e.bid));
  const specialRow = specials.length
    ? `<div class="ct-grid-specials">${specials.map((e) => button(e, esc(specialName(e.bid, ladder)))).join("")}</div>`
    : "";
  return `<div class="ct-grid-tricks" data-columns="${columns.length}">${head}${rows}</div>${specialRow}`;
}

// -- the kitty ---------------------------------------------------------------------------------

export class KittyExchange {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    /** The exchange in progress: which cards sit in the kitty area, which is selected. */
    this.exchange = null;
    table.el.overlay.insertAdjacentHTML("afterbegin", `<div class="ct-exchange" hidden>
          <div class="ct-exchange-label"></div>
          <div class="ct-kitty ct-cards" data-testid="kitty" role="group" aria-label="Kitty"></div>
          <button type="button" class="ct-button" data-testid="slam" hidden title="Partner passes you a card and folds; you must take all ten tricks">Call slam</button>
          <button type="button" class="ct-button ct-primary" data-testid="discard-submit">Discard</button>
        </div>`);
    this.panel = table.el.overlay.firstElementChild;
    const q = (selector) => this.panel.querySelector(selector);
    this.label = q(".ct-exchange-label");
    this.kitty = q("[data-testid=kitty]");
    this.slam = q("[data-testid=slam]");
    this.discard = q("[data-testid=discard-submit]");
    table.cardArea(this.kitty, "kitty");
    this.discard.addEventListener("click", () => {
      if (this.exchange) table.act(`discard ${this.exchange.kitty.join(" ")}`);
    });
    this.slam.addEventListener("click", () => table.act("slam"));
  }

  /** Whether I am exchanging with the kitty now. */
  isMine() {
    const table = this.table;
    const view = table.view;
    return table.isMyTurn() && (view.phase === "discard" || view.phase === "partner_discard")
      && view.discard_count !== null && view.discard_count !== undefined;
  }

  /**
   * Start or keep the local exchange: the kitty area starts with the cards that came from the
   * kitty (`view.exchange`); swaps only move cards between the two areas here.
   */
  sync() {
    if (!this.isMine()) {
      this.exchange = null;
      return;
    }
    const { view, message } = this.table;
    const key = `${message.table_id}:${message.match_number}:${view.hand_number}:${view.phase}`;
    const hand = new Set(view.hand);
    const valid = this.exchange && this.exchange.key === key && this.exchange.kitty.every((c) => hand.has(c));
    if (!valid) {
      const fromKitty = (view.exchange || []).filter((c) => hand.has(c));
      this.exchange = { key, kitty: fromKitty, selected: null };
    }
  }

  /** The cards of my hand, less those sitting in the kitty area. */
  handCards(cards) {
    if (!this.exchange) return cards;
    const inKitty = new Set(this.exchange.kitty);
    return cards.filter((card) => !inKitty.has(card));
  }

  /** The card selected for a swap, `{card, area}`, or null. */
  selected() {
    return this.exchange && this.exchange.selected;
  }

  /**
   * Seed 004 3.3: select a card in one area, then one in the other, to swap them. A second
   * click on the selected card, or a click in the same area, changes the selection.
   */
  swap(card, area) {
    const exchange = this.exchange;
    const selected = exchange.selected;
    if (!selected || selected.area === area) {
      exchange.selected = selected && selected.card === card ? null : { card, area };
    } else {
      const [fromKitty, fromHand] = area === "kitty" ? [card, selected.card] : [selected.card, card];
      exchange.kitty = exchange.kitty.map((c) => (c === fromKitty ? fromHand : c));
      exchange.selected = null;
    }
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    this.table.renderHand();
    this.render();
    const buttons = this.table.cardButtons;
    if (focused && buttons.has(focused)) buttons.get(focused).focus();
  }

  /** The kitty area while I exchange (the trick hidden meanwhile); Call slam while legal. */
  render() {
    const table = this.table;
    const exchange = this.exchange;
    this.slam.hidden = !table.legal().includes("slam");
    this.panel.hidden = !exchange;
    table.el.trick.hidden = Boolean(exchange);
    if (!exchange) {
      if (this.kitty.children.length) this.kitty.replaceChildren();
      return;
    }
    const count = table.view.discard_count;
    this.label.textContent = table.view.phase === "partner_discard"
      ? `Your partner's discards: swap cards with your hand, then put back ${count}`
      : `Kitty: swap cards with your hand, then put back ${count}`;
    table.fillCards(this.kitty, exchange.kitty, "kitty");
    this.discard.textContent = `Discard ${exchange.kitty.length} card${exchange.kitty.length === 1 ? "" : "s"}`;
    this.discard.disabled = exchange.kitty.length !== count;
  }

  /** Forget the exchange (another table). */
  reset() {
    this.exchange = null;
  }
}

// -- the joker led in no trumps ----------------------------------------------------------------

export class JokerLead {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    /** The joker being led: {card, suit}. */
    this.choice = null;
    const suitButton = (s) => `<button type="button" class="ct-joker-suit ct-${SUITS[s].colour} ct-suit-${s}" data-testid="joker-suit" data-suit="${s}" aria-pressed="false" title="${SUITS[s].name}">${SUITS[s].symbol}</button>`;
    this.panel = append(table.el.overlay, `<div class="ct-joker-picker ct-panel" data-testid="joker-picker" role="dialog" aria-label="Name the joker's suit" hidden>
          <div class="ct-panel-title">Lead the joker as…</div>
          <div class="ct-joker-suits">${CALL_SUITS.map(suitButton).join("")}</div>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="joker-cancel">Cancel</button>
            <button type="button" class="ct-button ct-primary" data-testid="joker-confirm" disabled>Play joker</button>
          </div>
        </div>`);
    this.confirm = this.panel.querySelector("[data-testid=joker-confirm]");
    this.panel.addEventListener("click", (event) => {
      const button = event.target.closest("[data-suit]");
      if (button && !button.disabled && this.choice) {
        this.choice.suit = button.dataset.suit;
        this.render();
        if (event.detail === 0) this.confirm.focus(); // chosen by keyboard: Enter plays it
      }
    });
    this.confirm.addEventListener("click", () => {
      const choice = this.choice;
      if (!choice || !choice.suit) return;
      this.close();
      table.act(`play ${choice.card}:${choice.suit}`);
    });
    this.panel.querySelector("[data-testid=joker-cancel]").addEventListener("click", () => this.close());
  }

  /** Whether leading this card needs a suit named ("play JK:S" style actions are legal). */
  canLead(card) {
    return this.table.legal().some((action) => action.startsWith(`play ${card}:`));
  }

  /** The picker closes when leading the joker is no longer legal. */
  sync() {
    if (this.choice && !this.canLead(this.choice.card)) this.close();
  }

  /** Seed 004 3.5: choose the suit the joker stands for, or cancel. */
  open(card) {
    this.choice = { card, suit: null };
    this.render();
    const first = this.panel.querySelector("[data-suit]:enabled");
    if (first) first.focus();
  }

  /** Close the picker without playing. */
  close() {
    this.choice = null;
    this.panel.hidden = true;
  }

  /** The picker's state: which suits are legal, which is chosen. */
  render() {
    const choice = this.choice;
    this.panel.hidden = !choice;
    if (!choice) return;
    const legal = legalSet(this.table);
    for (const button of this.panel.querySelectorAll("[data-suit]")) {
      const suit = button.dataset.suit;
      button.disabled = !legal.has(`play ${choice.card}:${suit}`);
      button.classList.toggle("selected", suit === choice.suit);
      button.setAttribute("aria-pressed", String(suit === choice.suit));
    }
    this.confirm.disabled = !choice.suit;
  }
}

// -- five players: calling a partner -----------------------------------------------------------

export class PartnerCall {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    /** The card selected in the call grid. */
    this.choice = null;
    this.key = "";
    this.panel = append(table.el.overlay, `
    <div class="ct-panel ct-call" data-testid="call-panel" role="dialog" aria-label="Call a partner" hidden>
      <div class="ct-panel-title"></div>
      <div class="ct-call-grid" data-testid="call-grid"></div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button ct-primary" data-testid="call-submit" disabled>Call</button>
      </div>
    </div>`);
    this.title = this.panel.querySelector(".ct-panel-title");
    this.grid = this.panel.querySelector("[data-testid=call-grid]");
    this.submit = this.panel.querySelector("[data-testid=call-submit]");
    this.grid.addEventListener("click", (event) => {
      const button = event.target.closest("[data-card]");
      if (!button || button.disabled) return;
      this.choice = this.choice === button.dataset.card ? null : button.dataset.card;
      this.render();
    });
    this.submit.addEventListener("click", () => {
      if (this.choice) table.act(`call ${this.choice}`);
    });
  }

  /** Cards the contractor names this hand: two on a bid of eight or more. */
  wanted() {
    const view = this.table.view;
    const bid = view && view.contract ? view.contract.bid : "";
    const match = /^(\d+)/.exec(bid || "");
    return match && Number(match[1]) >= 8 ? 2 : 1;
  }

  /** The partner call: every card of the deck, those I may name enabled. */
  render() {
    const table = this.table;
    const view = table.view;
    const show = Boolean(view) && table.isMyTurn() && view.phase === "call";
    this.panel.hidden = !show;
    if (!show) {
      this.choice = null;
      return;
    }
    const legal = legalSet(table);
    const callable = [...legal].filter((a) => a.startsWith("call ")).map((a) => a.slice(5));
    const cards = new Set([...callable, ...(view.hand || []), ...(view.called || [])]);
    const ranks = CALL_RANKS.filter((rank) => CALL_SUITS.some((s) => cards.has(`${rank}${s}`)));
    const key = `${view.hand_number}:${ranks.join(",")}:${[...legal].sort().join(",")}`;
    if (key !== this.key) {
      this.key = key;
      const button = (card, label) => `<button type="button" class="ct-call-card ${card.startsWith("JK") ? "ct-call-joker" : `ct-${SUITS[card.slice(-1)].colour} ct-suit-${card.slice(-1)}`}" data-testid="call-card" data-card="${esc(card)}" aria-label="${esc(cardName(card))}" aria-pressed="false" ${legal.has(`call ${card}`) ? "" : "disabled"}>${label}</button>`;
      const rows = CALL_SUITS.map((s) => suitHTML(s)
        + ranks.map((rank) => (cards.has(`${rank}${s}`) ? button(`${rank}${s}`, esc(rank)) : "<span></span>")).join("")).join("");
      const jokers = ["JK", "JK2"].filter((c) => cards.has(c));
      const jokerRow = jokers.length ? `<span></span>${jokers.map((c) => button(c, c === "JK2" ? "Black joker" : "Joker")).join("")}` : "";
      this.grid.style.setProperty("--ranks", String(ranks.length));
      this.grid.innerHTML = rows + jokerRow;
    }
    if (this.choice && !legal.has(`call ${this.choice}`)) this.choice = null;
    for (const button of this.grid.querySelectorAll("[data-card]")) {
      const selected = button.dataset.card === this.choice;
      button.classList.toggle("selected", selected);
      button.setAttribute("aria-pressed", String(selected));
    }
    this.title.textContent = this.wanted() === 2
      ? `Call a partner by a card you do not hold (${view.called.length + 1} of 2)`
      : "Call a partner by a card you do not hold";
    this.submit.disabled = !this.choice;
    this.submit.innerHTML = this.choice ? `Call ${cardHTML(this.choice)}` : "Call";
  }
}

// -- naming the joker's suit before the first lead ---------------------------------------------

export class JokerNominate {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    const suit = (s) => `<button type="button" class="ct-joker-suit ct-${SUITS[s].colour} ct-suit-${s}" data-testid="nominate-suit" data-suit="${s}" title="${SUITS[s].name}">${SUITS[s].symbol}</button>`;
    this.panel = append(table.el.overlay, `
    <div class="ct-panel ct-nominate" data-testid="joker-nominate" role="dialog" aria-label="Name the joker's suit" hidden>
      <div class="ct-panel-title">Name a suit for the joker?</div>
      <div class="muted small ct-nominate-help">It becomes that suit's highest card and is no longer a trump.</div>
      <div class="ct-joker-suits">${CALL_SUITS.map(suit).join("")}</div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button" data-testid="nominate-pass">Keep it the only trump</button>
      </div>
    </div>`);
    this.panel.addEventListener("click", (event) => {
      const button = event.target.closest("[data-suit]");
      if (button && !button.disabled) table.act(`joker ${button.dataset.suit}`);
    });
    this.panel.querySelector("[data-testid=nominate-pass]").addEventListener("click", () => table.act("pass"));
  }

  /** Shown on my turn to name the suit; the suits I may name enabled. */
  render() {
    const table = this.table;
    const view = table.view;
    const show = Boolean(view) && table.isMyTurn() && view.phase === "joker";
    this.panel.hidden = !show;
    if (!show) return;
    const legal = legalSet(table);
    for (const button of this.panel.querySelectorAll("[data-suit]")) {
      button.disabled = !legal.has(`joker ${button.dataset.suit}`);
    }
  }
}
