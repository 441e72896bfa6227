/**
 * The card table: seats around the felt (you at the bottom, partner at the top), your hand,
 * the bidding grid, the kitty exchange, the trick with its animations, the joker suit picker,
 * the end-of-hand result, the turn highlight and the turn clock.
 *
 * It only renders what the server sends (the `table` message, whose `view` is
 * `Game.view(seat)`) and never decides legality: a card is playable because an action with it
 * is in `view.legal_actions`, and a click on any other card is sent anyway so that the
 * server's reason appears in the notice.
 *
 * The DOM is built once; each `update` changes only the parts that moved, reusing card
 * buttons by their card text so nothing flickers.
 *
 * @module table
 */

import { cardSVG, backSVG, cardName, SUITS } from "./cards.js";
import { seatName } from "./dom.js";
import { HintControl } from "./hint.js";

/** Screen places of the seats, clockwise from mine: play passes to the left. */
const POSITIONS = ["bottom", "left", "top", "right"];
/** The places used at a table of three: nobody sits opposite. */
const POSITIONS_OF_THREE = ["bottom", "left", "right"];
/** Every place a seat can take, clockwise from the bottom (six seats use them all). */
const ALL_POSITIONS = ["bottom", "left", "top-left", "top", "top-right", "right"];
/** The places used by each number of seats, clockwise from mine. */
const POSITIONS_BY_COUNT = {
  3: POSITIONS_OF_THREE,
  4: POSITIONS,
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ALL_POSITIONS,
};
/** Columns of the bidding grid, lowest suit first (J5 no trumps only when the ladder has it). */
const BID_COLUMNS = ["S", "C", "D", "H", "NT", "J5"];
/** A trick bid's text: tricks and strain (J5: no trumps with the jacks on top). */
const TRICK_BID = /^(\d+)(S|C|D|H|NT|J5)$/;
/** Team colour classes: one per side, up to six. */
const TEAM_CLASSES = ["team-0", "team-1", "team-2", "team-3", "team-4", "team-5"];

/** Animation timings (ms): a card sliding in, a finished trick on show, the sweep. */
const SLIDE_MS = 260;
const TRICK_HOLD_MS = 1000;
const SWEEP_MS = 260;
/** How long a notice and a hand result stay up (ms). */
const NOTICE_MS = 4500;
const RESULT_MS = 7000;
/** Press this long on a bid to see its value on a touch screen (ms). */
const LONG_PRESS_MS = 450;
/** A click arriving while an action is in flight is ignored for at most this long (ms). */
const SEND_GUARD_MS = 1500;

/** The minus sign used for negative points. */
const MINUS = "\u2212";

/**
 * Escape text for HTML.
 * @param {unknown} value
 */
function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Signed points, with a real minus sign: "+200", "−40". */
function signed(points) {
  return points < 0 ? `${MINUS}${-points}` : `+${points}`;
}

/** A score, with a real minus sign. */
function score(points) {
  return points < 0 ? `${MINUS}${-points}` : String(points);
}

/**
 * A bid as short HTML: "7♥" with the suit in its colour, "8NT", or the special bid's name.
 * @param {string} text bid text ("7H", "misere", "pass")
 * @param {Array<{bid: string, name: string}>} [ladder] names of the special bids
 */
function bidHTML(text, ladder = []) {
  if (text === "pass") return "Bye";
  const match = TRICK_BID.exec(text || "");
  if (match) {
    const [, tricks, strain] = match;
    if (strain === "NT" || strain === "J5") return `${tricks}<span class="ct-nt">${strain}</span>`;
    return `${tricks}<span class="ct-suit ct-${SUITS[strain].colour}">${SUITS[strain].symbol}</span>`;
  }
  return esc(specialName(text, ladder));
}

/** A special bid's display name: the ladder's name, capitalised, else the text. */
function specialName(text, ladder) {
  const entry = ladder.find((e) => e.bid === text);
  const name = entry ? entry.name : String(text).replace(/-/g, " ");
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Whether the user asked for less motion. */
function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The static skeleton of the table; `update` fills it. */
function skeleton() {
  const seat = (pos) => `
    <section class="ct-seat pos-${pos}" data-testid="seat" data-pos="${pos}">
      <div class="ct-plate">
        <span class="ct-spinner" aria-hidden="true"></span>
        <span class="ct-name"></span>
        <span class="ct-dealer" title="Dealer" hidden>D</span>
        <span class="ct-lastbid" data-testid="seat-bid"></span>
        <span class="ct-tricks" data-testid="seat-tricks"></span>
        <span class="ct-clock" data-testid="clock" hidden></span>
      </div>
      <div class="ct-seat-cards" aria-hidden="true"></div>
    </section>`;
  const suitButton = (s) => `<button type="button" class="ct-joker-suit ct-${SUITS[s].colour}" data-testid="joker-suit" data-suit="${s}" aria-pressed="false" title="${SUITS[s].name}">${SUITS[s].symbol}</button>`;
  return `
  <div class="ct" data-testid="table">
    <div class="ct-bar">
      <div class="ct-status" data-testid="status" role="status" aria-live="polite"></div>
      <div class="ct-contract" data-testid="contract"></div>
      <div class="ct-links">
        <a class="ct-rules" data-testid="rules-link" target="_blank" rel="noopener">Rules</a>
        <button type="button" class="ct-leave" data-testid="leave">Leave</button>
      </div>
    </div>
    <div class="ct-felt">
      ${ALL_POSITIONS.map(seat).join("")}
      <div class="ct-center">
        <div class="ct-trick" data-testid="trick" aria-label="Cards on the table"></div>
      </div>
      <div class="ct-overlay">
        <div class="ct-exchange" hidden>
          <div class="ct-exchange-label"></div>
          <div class="ct-kitty ct-cards" data-testid="kitty" role="group" aria-label="Kitty"></div>
          <button type="button" class="ct-button ct-primary" data-testid="discard-submit">Discard</button>
        </div>
        <div class="ct-result" data-testid="hand-result" role="status" hidden></div>
        <div class="ct-bidding ct-panel" hidden>
          <div class="ct-panel-title">Your bid</div>
          <div class="ct-bid-grid" data-testid="bid-grid"></div>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="pass">Bye</button>
            <button type="button" class="ct-button ct-primary" data-testid="bid-submit" disabled>Bid</button>
          </div>
        </div>
        <div class="ct-joker-picker ct-panel" data-testid="joker-picker" role="dialog" aria-label="Name the joker's suit" hidden>
          <div class="ct-panel-title">Lead the joker as…</div>
          <div class="ct-joker-suits">${Object.keys(SUITS).map(suitButton).join("")}</div>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="joker-cancel">Cancel</button>
            <button type="button" class="ct-button ct-primary" data-testid="joker-confirm" disabled>Play joker</button>
          </div>
        </div>
      </div>
      <div class="ct-tip" role="tooltip" hidden></div>
    </div>
    <div class="ct-mine">
      <div class="ct-hand ct-cards" data-testid="hand" role="group" aria-label="Your hand"></div>
    </div>
  </div>`;
}

export { esc, signed, score, reducedMotion };

export class TableView {
  /**
   * @param {HTMLElement} root where the table is drawn
   * @param {{send: (action: string) => Promise<unknown>, me: {player_id: string, name: string},
   *   options: {cardBack: number, sound: boolean}, rulesLink: string, onLeave: () => void}} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.options = { cardBack: 0, sound: false, ...(ctx.options || {}) };
    /** The last `table` message and its view. */
    this.message = null;
    this.view = null;
    /** My seat, or null when watching. */
    this.mySeat = null;
    /** Card buttons by card text, shared by the hand and the kitty so a swap moves one node. */
    this.cardButtons = new Map();
    /** Bid selected in the grid, and the ladder the grid was built for. */
    this.selectedBid = null;
    this.gridKey = "";
    /** The kitty exchange in progress: which cards sit in the kitty area, which is selected. */
    this.exchange = null;
    /** The joker being led: {card, suit}. */
    this.jokerChoice = null;
    /** When the action in flight was sent (0: none). */
    this.sendingSince = 0;
    /** The trick area: shown cards by "seat:card", what to show once a finished trick is swept. */
    this.trickCards = new Map();
    this.trickBusy = false;
    this.trickNext = null;
    this.afterTrick = [];
    /** Keys of what each seat's face-down cards were last drawn from (to skip redraws). */
    this.seatCardKeys = new Map();
    this.timers = new Set();
    this.trickTimers = new Set();
    this.clockTimer = 0;
    this.noticeTimer = 0;
    this.resultTimer = 0;
    this.pressTimer = 0;

    root.innerHTML = skeleton();
    this.el = this.collectElements();
    this.notice = this.findNotice();
    this.el.rules.href = ctx.rulesLink || "#";
    this.bindEvents();
    /** The Hint button and the marks of a hint (casual tables). */
    this.hints = new HintControl(this);
  }

  /** References to the parts `update` changes. */
  collectElements() {
    const q = (selector) => this.root.querySelector(selector);
    const seats = {};
    for (const pos of ALL_POSITIONS) seats[pos] = q(`.ct-seat.pos-${pos}`);
    return {
      table: q("[data-testid=table]"), status: q("[data-testid=status]"),
      contract: q("[data-testid=contract]"), rules: q("[data-testid=rules-link]"),
      leave: q("[data-testid=leave]"), felt: q(".ct-felt"), seats,
      trick: q("[data-testid=trick]"), exchange: q(".ct-exchange"),
      exchangeLabel: q(".ct-exchange-label"), kitty: q("[data-testid=kitty]"),
      discard: q("[data-testid=discard-submit]"), result: q("[data-testid=hand-result]"),
      bidding: q(".ct-bidding"), grid: q("[data-testid=bid-grid]"),
      pass: q("[data-testid=pass]"), bidSubmit: q("[data-testid=bid-submit]"),
      joker: q("[data-testid=joker-picker]"), jokerConfirm: q("[data-testid=joker-confirm]"),
      jokerCancel: q("[data-testid=joker-cancel]"), tip: q(".ct-tip"),
      hand: q("[data-testid=hand]"),
    };
  }

  /** The page's notice element if the app has one, else one made inside the table. */
  findNotice() {
    const existing = document.querySelector("[data-testid=notice]");
    if (existing) return existing;
    const notice = document.createElement("div");
    notice.className = "ct-notice";
    notice.dataset.testid = "notice";
    notice.setAttribute("role", "alert");
    notice.hidden = true;
    notice.addEventListener("click", () => { notice.hidden = true; });
    this.el.table.append(notice);
    return notice;
  }

  /** All listeners: delegated clicks, keyboard moves, long presses, options changes. */
  bindEvents() {
    const { el } = this;
    el.leave.addEventListener("click", () => this.ctx.onLeave && this.ctx.onLeave());
    for (const area of [el.hand, el.kitty]) {
      area.addEventListener("click", (event) => {
        const button = event.target.closest("[data-card]");
        if (button) this.onCardClick(button.dataset.card, area === el.kitty ? "kitty" : "hand");
      });
      area.addEventListener("keydown", (event) => this.onCardKey(event, area));
    }
    el.discard.addEventListener("click", () => {
      if (this.exchange) this.act(`discard ${this.exchange.kitty.join(" ")}`);
    });
    el.grid.addEventListener("click", (event) => {
      const button = event.target.closest("[data-bid]");
      if (!button || button.disabled) return;
      this.selectedBid = this.selectedBid === button.dataset.bid ? null : button.dataset.bid;
      this.renderBidding();
    });
    el.grid.addEventListener("pointerdown", (event) => this.startLongPress(event));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      el.grid.addEventListener(type, () => this.endLongPress());
    }
    el.bidSubmit.addEventListener("click", () => {
      if (this.selectedBid) this.act(`bid ${this.selectedBid}`);
    });
    el.pass.addEventListener("click", () => this.act("pass"));
    el.joker.addEventListener("click", (event) => {
      const suitButton = event.target.closest("[data-suit]");
      if (suitButton && !suitButton.disabled && this.jokerChoice) {
        this.jokerChoice.suit = suitButton.dataset.suit;
        this.renderJokerPicker();
      }
    });
    el.jokerConfirm.addEventListener("click", () => {
      const choice = this.jokerChoice;
      if (!choice || !choice.suit) return;
      this.closeJokerPicker();
      this.act(`play ${choice.card}:${choice.suit}`);
    });
    el.jokerCancel.addEventListener("click", () => this.closeJokerPicker());
    el.result.addEventListener("click", () => { el.result.hidden = true; });
    this.onOptions = (event) => {
      this.options = { ...this.options, ...(event.detail || {}) };
      this.seatCardKeys.clear();
      if (this.message) this.renderSeats();
    };
    window.addEventListener("cardroom:options", this.onOptions);
  }

  // -- the update ------------------------------------------------------------------------------

  /**
   * Show a new `table` message (docs/protocol.md).
   * @param {object} message
   */
  update(message) {
    if (!message) return;
    const previous = this.message;
    this.message = message;
    this.view = message.view || null;
    this.mySeat = message.seat ?? null;
    const view = this.view;
    const table = this.el.table;
    table.dataset.phase = view ? view.phase : "waiting";
    table.dataset.version = String(message.version);
    table.dataset.seat = this.mySeat === null ? "" : String(this.mySeat);
    table.dataset.toAct = view && view.to_act !== null && view.to_act !== undefined ? String(view.to_act) : "";
    table.classList.toggle("my-turn", this.isMyTurn());
    if (previous && previous.table_id !== message.table_id) this.resetLocalState();

    this.syncExchange();
    if (this.jokerChoice && !this.canLeadJoker(this.jokerChoice.card)) this.closeJokerPicker();
    this.renderSeats();
    this.renderStatus();
    this.renderContract();
    this.renderBidding();
    this.renderHand();
    this.renderExchange();
    this.renderTrick(message.events || []);
    this.renderEvents(message.events || []);
    this.renderClock();
    this.hints.render();
  }

  /** Forget choices tied to another table. */
  resetLocalState() {
    this.exchange = null;
    this.selectedBid = null;
    this.closeJokerPicker();
    this.el.result.hidden = true;
  }

  /** Stop timers and listeners and empty the root. */
  destroy() {
    window.removeEventListener("cardroom:options", this.onOptions);
    this.hints.destroy();
    for (const timer of [...this.timers, ...this.trickTimers]) clearTimeout(timer);
    this.timers.clear();
    this.trickTimers.clear();
    clearInterval(this.clockTimer);
    clearTimeout(this.noticeTimer);
    clearTimeout(this.resultTimer);
    clearTimeout(this.pressTimer);
    if (this.notice && !this.root.contains(this.notice)) this.notice.hidden = true;
    this.root.innerHTML = "";
  }

  // -- seats -----------------------------------------------------------------------------------

  /** Number of seats at the table. */
  seatCount() {
    return (this.message && this.message.seats && this.message.seats.length) || POSITIONS.length;
  }

  /** The seat drawn at the bottom: mine, or seat 0 for spectators. */
  bottomSeat() {
    return this.mySeat ?? 0;
  }

  /** The screen places in use, clockwise from the bottom. */
  positions() {
    return POSITIONS_BY_COUNT[this.seatCount()] || POSITIONS;
  }

  /** Screen position of a seat: my seat at the bottom, the next seat clockwise at the left. */
  positionOf(seat) {
    const count = this.seatCount();
    return this.positions()[(seat - this.bottomSeat() + count) % count];
  }

  /** The seat element of a seat. */
  seatElement(seat) {
    return this.el.seats[this.positionOf(seat)];
  }

  /** A seat's name, as the lobby and score panel give it (dom.js). */
  nameOf(seat) {
    return seatName(this.message && this.message.seats ? this.message.seats[seat] : null, seat);
  }

  /** Who a seat is in a sentence: "you" for me. */
  whoIs(seat) {
    return seat === this.mySeat ? "you" : this.nameOf(seat);
  }

  /** The sides' seats: the view's, else the lobby's, else one seat each beyond four seats. */
  teams() {
    const given = (this.view && this.view.teams) || (this.message && this.message.teams);
    if (given) return given;
    const count = this.seatCount();
    return count === 4 ? [[0, 2], [1, 3]] : Array.from({ length: count }, (_, seat) => [seat]);
  }

  /** The side of a seat. */
  teamOf(seat) {
    return this.teams().findIndex((team) => team.includes(seat));
  }

  /** A side's players by name: "Alice and Bob". */
  sideName(team, joiner = " and ") {
    return this.teams()[team].map((seat) => this.nameOf(seat)).join(joiner);
  }

  /** Whether it is my turn. */
  isMyTurn() {
    return Boolean(this.view) && this.mySeat !== null && this.view.to_act === this.mySeat
      && this.view.phase !== "over";
  }

  /** Nameplates, last bids, tricks, turn highlight and each seat's cards. */
  renderSeats() {
    const view = this.view;
    const seats = this.message.seats || [];
    const lastBids = new Map();
    for (const entry of (view && view.bidding) || []) lastBids.set(entry.seat, entry);
    const used = new Set(this.positions());
    for (const pos of ALL_POSITIONS) this.el.seats[pos].hidden = !used.has(pos);
    this.el.felt.dataset.seats = String(this.seatCount());
    for (let seat = 0; seat < this.seatCount(); seat++) {
      const element = this.seatElement(seat);
      const info = seats[seat] || {};
      element.dataset.seat = String(seat);
      element.classList.remove(...TEAM_CLASSES);
      element.classList.add(`team-${this.teamOf(seat)}`);
      element.classList.toggle("me", seat === this.mySeat);
      element.classList.toggle("empty", !info.name && !info.bot);
      // Away: a bot plays for them. Offline: not connected, the seat waits for them.
      element.classList.toggle("away", Boolean(info.away));
      element.classList.toggle("offline", Boolean(!info.away && info.name && !info.bot && info.connected === false));
      const toAct = Boolean(view) && view.to_act === seat && view.phase !== "over";
      element.classList.toggle("to-act", toAct);
      const sitting = this.isSittingOut(seat);
      element.classList.toggle("sitting-out", Boolean(sitting));
      element.querySelector(".ct-name").textContent = this.nameOf(seat) + (seat === this.mySeat ? " (you)" : "");
      element.querySelector(".ct-dealer").hidden = !view || view.dealer !== seat;
      const bid = lastBids.get(seat);
      const bidElement = element.querySelector(".ct-lastbid");
      bidElement.innerHTML = bid ? this.seatBidHTML(bid) : "";
      bidElement.classList.toggle("passed", Boolean(bid) && bid.bid === "pass");
      bidElement.hidden = !bid;
      const tricks = element.querySelector(".ct-tricks");
      const tricksText = this.seatTricksText(seat);
      tricks.hidden = !tricksText;
      tricks.textContent = tricksText;
      this.renderSeatCards(seat, element, info);
    }
  }

  /** Whether a seat takes no part in this hand (a folded partner, a dealer sitting out). */
  isSittingOut(seat) {
    const view = this.view;
    return Boolean(view && view.contract && view.contract.playing && !view.contract.playing.includes(seat));
  }

  /** A seat's last bid on its nameplate (a `view.bidding` entry). */
  seatBidHTML(entry) {
    return bidHTML(entry.bid, this.view.ladder);
  }

  /** The tricks a seat has won, once the play is near ("3 tricks"); "" to hide. */
  seatTricksText(seat) {
    const view = this.view;
    if (!view || view.phase === "bidding") return "";
    return `${view.tricks_won[seat]} trick${view.tricks_won[seat] === 1 ? "" : "s"}`;
  }

  /**
   * A seat's cards: face up when its hand is open (Spread), otherwise backs in the chosen
   * style. My own seat shows none (my hand is below the felt).
   */
  renderSeatCards(seat, element, info) {
    const view = this.view;
    const holder = element.querySelector(".ct-seat-cards");
    let faces = null;
    let count = 0;
    if (seat !== this.mySeat) {
      const open = view && view.open_hands ? view.open_hands[String(seat)] : null;
      if (open) faces = open;
      else if (view) count = view.hand_sizes[seat];
      else if (info.name || info.bot) count = this.startingHandSize();
    }
    const key = faces ? `open:${faces.join(",")}` : `backs:${count}:${this.options.cardBack}`;
    if (this.seatCardKeys.get(seat) === key) return;
    this.seatCardKeys.set(seat, key);
    holder.classList.toggle("open", Boolean(faces));
    holder.setAttribute("aria-hidden", faces ? "false" : "true");
    holder.innerHTML = faces
      ? faces.map((card) => `<span class="ct-mini" data-card="${esc(card)}" title="${esc(cardName(card))}">${cardSVG(card)}</span>`).join("")
      : Array.from({ length: count }, () => `<span class="ct-back">${backSVG(this.options.cardBack)}</span>`).join("");
  }

  /** Cards each player holds before a deal (backs drawn while waiting for the match). */
  startingHandSize() {
    return 10;
  }

  // -- status and contract lines ---------------------------------------------------------------

  /** The status bar: what the table waits for. */
  renderStatus() {
    this.el.status.textContent = this.statusText();
  }

  /** The status sentence for the current state. */
  statusText() {
    const view = this.view;
    const seats = this.message.seats || [];
    if (!view) {
      const missing = seats.filter((s) => !s.name && !s.bot).length;
      if (missing) return `Waiting for ${missing} more player${missing === 1 ? "" : "s"} to join`;
      return "Starting the match…";
    }
    const actor = view.to_act;
    const who = actor === null || actor === undefined ? "" : this.nameOf(actor);
    return this.phaseStatus(view, this.isMyTurn(), who);
  }

  /**
   * The status sentence during a game: `mine` when it is my turn, `who` the name of the seat
   * to act. Each game's table adds its own phases and falls back on this one.
   */
  phaseStatus(view, mine, who) {
    switch (view.phase) {
      case "bidding":
        return mine ? "Your turn to bid" : `Waiting for ${who} to bid`;
      case "give":
        return mine ? "Give one card to your partner" : `${who} is giving a card to their partner`;
      case "discard":
        return mine ? `Exchange with the kitty: put back ${view.discard_count} cards`
          : `${who} is exchanging with the kitty`;
      case "partner_discard":
        return mine ? `Choose from your partner's discards: put back ${view.discard_count} cards`
          : `${who} is exchanging with the kitty (their partner's discards)`;
      case "play":
        return mine ? "Your turn to play" : `Waiting for ${who} to play`;
      case "over":
        return view.winner === null || view.winner === undefined ? "The match is over"
          : `${this.sideName(view.winner)} won the match. A new match starts shortly.`;
      default:
        return mine ? "Your turn" : `Waiting for ${who}`;
    }
  }

  /** The contract line: contract, contractor, trumps, tricks won per side against needed. */
  renderContract() {
    this.el.contract.innerHTML = this.view ? this.contractHTML(this.view) : "";
  }

  /** The contract line's HTML for a view (each game's table has its own). */
  contractHTML(view) {
    const scores = `<span class="ct-scores" title="Score">${view.scores.map((s, team) =>
      `<span class="team-${team}">${score(s)}</span>`).join('<span class="ct-sep">:</span>')}</span>`;
    const contract = view.contract;
    if (!contract) {
      const high = view.high_bid;
      return `${scores}<span>Hand ${view.hand_number}${high ? ` · high bid ${bidHTML(high.bid, view.ladder)} ${esc(this.nameOf(high.seat))}` : ""}</span>`;
    }
    if (!contract.bid) {
      return `${scores}<span>No trumps (nobody bid)</span>`;
    }
    const side = this.teamOf(contract.contractor);
    // The makers: the contractor's known side (five players: with the partners revealed so
    // far), against everybody else.
    const makers = view.contract_side && view.contract_side.length ? view.contract_side : this.teams()[side];
    const tricksOf = (seats) => seats.reduce((sum, seat) => sum + (view.tricks_won[seat] || 0), 0);
    const others = view.tricks_won.map((_, seat) => seat).filter((seat) => !makers.includes(seat));
    const otherClass = this.teams().length === 2 ? `team-${1 - side}` : "";
    const match = TRICK_BID.exec(contract.bid);
    const needed = match ? Number(match[1]) : 0;
    const trump = contract.trump ? `<span class="ct-suit ct-${SUITS[contract.trump].colour}" title="Trumps: ${SUITS[contract.trump].name}">${SUITS[contract.trump].symbol}</span>` : "";
    return `${scores}`
      + `<span class="ct-contract-bid team-${side}">${bidHTML(contract.bid, view.ladder)} <span class="ct-by">${esc(this.nameOf(contract.contractor))}</span>${trump ? ` trumps ${trump}` : ""}</span>`
      + `<span class="ct-count" title="Tricks: the contract's side · the others"><span class="team-${side}">${tricksOf(makers)}${match ? `/${needed}` : ""}</span>`
      + `<span class="ct-sep">·</span><span class="${otherClass}">${tricksOf(others)}</span></span>`;
  }

  // -- the hand and the kitty ------------------------------------------------------------------

  /** Whether I am exchanging with the kitty now. */
  isMyExchange() {
    const view = this.view;
    return this.isMyTurn() && (view.phase === "discard" || view.phase === "partner_discard")
      && view.discard_count !== null && view.discard_count !== undefined;
  }

  /**
   * Start or keep the local kitty exchange: the kitty area starts with the cards that came
   * from the kitty (`view.exchange`); swaps only move cards between the two areas here.
   */
  syncExchange() {
    if (!this.isMyExchange()) {
      this.exchange = null;
      return;
    }
    const view = this.view;
    const key = `${this.message.table_id}:${this.message.match_number}:${view.hand_number}:${view.phase}`;
    const hand = new Set(view.hand);
    const valid = this.exchange && this.exchange.key === key && this.exchange.kitty.every((c) => hand.has(c));
    if (!valid) {
      const fromKitty = (view.exchange || []).filter((c) => hand.has(c));
      this.exchange = { key, kitty: fromKitty, selected: null };
    }
  }

  /** The cards shown in my hand: all of them, but those sitting in the kitty area. */
  handCards() {
    const view = this.view;
    if (!view || !view.hand) return [];
    if (!this.exchange) return view.hand;
    const inKitty = new Set(this.exchange.kitty);
    return view.hand.filter((card) => !inKitty.has(card));
  }

  /** Whether some legal action uses this card now ("play X", "play X:S", "give X"). */
  isPlayable(card) {
    if (this.exchange) return true;
    const legal = (this.view && this.view.legal_actions) || [];
    return legal.some((action) => action === `play ${card}` || action.startsWith(`play ${card}:`)
      || action === `give ${card}`);
  }

  /** A reusable button for a card. */
  cardButton(card) {
    let button = this.cardButtons.get(card);
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "ct-card";
      button.dataset.card = card;
      button.setAttribute("aria-label", cardName(card));
      button.innerHTML = cardSVG(card);
      this.cardButtons.set(card, button);
    }
    return button;
  }

  /**
   * Put these cards' buttons into an area in order, moving only what changed.
   * @param {HTMLElement} area
   * @param {string[]} cards
   * @param {string} areaName "hand" or "kitty" (the selection belongs to one)
   */
  fillCards(area, cards, areaName) {
    const wanted = new Set(cards);
    for (const child of [...area.children]) {
      if (!wanted.has(child.dataset.card)) child.remove();
    }
    const selected = this.exchange && this.exchange.selected;
    cards.forEach((card, index) => {
      const button = this.cardButton(card);
      if (area.children[index] !== button) area.insertBefore(button, area.children[index] || null);
      const playable = this.isPlayable(card);
      button.classList.toggle("playable", playable);
      button.classList.toggle("dimmed", !playable);
      const isSelected = Boolean(selected) && selected.card === card && selected.area === areaName;
      button.classList.toggle("selected", isSelected);
      button.setAttribute("aria-pressed", String(isSelected));
    });
    area.style.setProperty("--count", String(cards.length));
    for (const card of [...this.cardButtons.keys()]) {
      if (!this.cardButtons.get(card).isConnected) this.cardButtons.delete(card);
    }
  }

  /** My hand. */
  renderHand() {
    this.fillCards(this.el.hand, this.handCards(), "hand");
    this.el.hand.hidden = this.mySeat === null;
  }

  /** The kitty area while I exchange, or nothing. */
  renderExchange() {
    const { el } = this;
    const exchange = this.exchange;
    el.exchange.hidden = !exchange;
    el.trick.hidden = Boolean(exchange);
    if (!exchange) {
      if (el.kitty.children.length) el.kitty.replaceChildren();
      return;
    }
    const count = this.view.discard_count;
    el.exchangeLabel.textContent = this.view.phase === "partner_discard"
      ? `Your partner's discards: swap cards with your hand, then put back ${count}`
      : `Kitty: swap cards with your hand, then put back ${count}`;
    this.fillCards(el.kitty, exchange.kitty, "kitty");
    el.discard.textContent = `Discard ${exchange.kitty.length} card${exchange.kitty.length === 1 ? "" : "s"}`;
    el.discard.disabled = exchange.kitty.length !== count;
  }

  /** A click on one of my cards: a kitty swap, or the card's action. */
  onCardClick(card, area) {
    if (this.exchange) {
      this.swapSelect(card, area);
      return;
    }
    const view = this.view;
    if (!view) return;
    const legal = view.legal_actions || [];
    if (legal.includes(`give ${card}`) || view.phase === "give") {
      this.act(`give ${card}`);
    } else if (this.canLeadJoker(card)) {
      this.openJokerPicker(card);
    } else {
      this.act(`play ${card}`);
    }
  }

  /**
   * Seed 004 3.3: select a card in one area, then one in the other, to swap them. A second
   * click on the selected card, or a click in the same area, changes the selection.
   */
  swapSelect(card, area) {
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
    this.renderHand();
    this.renderExchange();
    if (focused && this.cardButtons.has(focused)) this.cardButtons.get(focused).focus();
  }

  /** Arrow keys move the focus between the cards of an area (Enter and Space click). */
  onCardKey(event, area) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    const buttons = [...area.querySelectorAll("[data-card]")];
    const index = buttons.indexOf(document.activeElement);
    if (!buttons.length) return;
    event.preventDefault();
    const next = index < 0 ? 0 : (index + step + buttons.length) % buttons.length;
    buttons[next].focus();
  }

  // -- bidding ---------------------------------------------------------------------------------

  /** The grid of every bid, shown on my turn to bid. */
  renderBidding() {
    const { el } = this;
    const view = this.view;
    const show = this.isMyTurn() && view.phase === "bidding";
    el.bidding.hidden = !show;
    if (!show) {
      this.selectedBid = null;
      return;
    }
    const ladder = view.ladder || [];
    const key = ladder.map((e) => `${e.bid}=${e.value}`).join(",");
    if (key !== this.gridKey) {
      this.gridKey = key;
      el.grid.innerHTML = this.gridHTML(ladder);
      const tricks = el.grid.querySelector(".ct-grid-tricks");
      // Set through the CSSOM: a style attribute in markup breaks the page's CSP.
      if (tricks) tricks.style.setProperty("--columns", tricks.dataset.columns);
    }
    const legal = new Set(view.legal_actions || []);
    const highIndex = view.high_bid ? ladder.findIndex((e) => e.bid === view.high_bid.bid) : -1;
    if (this.selectedBid && !legal.has(`bid ${this.selectedBid}`)) this.selectedBid = null;
    ladder.forEach((entry, index) => {
      const button = el.grid.querySelector(`[data-bid="${CSS.escape(entry.bid)}"]`);
      if (!button) return;
      button.disabled = !legal.has(`bid ${entry.bid}`);
      button.classList.toggle("crossed", index <= highIndex);
      const selected = entry.bid === this.selectedBid;
      button.classList.toggle("selected", selected);
      button.setAttribute("aria-pressed", String(selected));
    });
    el.bidSubmit.disabled = !this.selectedBid;
    el.bidSubmit.innerHTML = this.selectedBid ? `Bid ${bidHTML(this.selectedBid, ladder)}` : "Bid";
    el.pass.title = legal.has("pass") ? "Go bye: pass for the rest of this hand" : "You may not pass now";
  }

  /** The grid's HTML: tricks 6–10 by strain, then the special bids by name. */
  gridHTML(ladder) {
    const button = (entry, label) => `<button type="button" class="ct-bid" data-bid="${esc(entry.bid)}" title="${esc(`${entry.name}: ${entry.value} points`)}" aria-pressed="false"><span class="ct-bid-label">${label}</span><span class="ct-bid-value">${entry.value}</span></button>`;
    const byText = new Map(ladder.map((e) => [e.bid, e]));
    const levels = [...new Set(ladder.map((e) => TRICK_BID.exec(e.bid)).filter(Boolean).map((m) => Number(m[1])))].sort((a, b) => a - b);
    const strains = new Set(ladder.map((e) => TRICK_BID.exec(e.bid)).filter(Boolean).map((m) => m[2]));
    const columns = BID_COLUMNS.filter((s) => strains.has(s));
    const head = `<span class="ct-grid-corner"></span>` + columns.map((s) =>
      (s === "NT" || s === "J5" ? `<span class="ct-grid-head" title="${s === "J5" ? "J5 no trumps: each jack above its ace" : "No trumps"}">${s}</span>` : `<span class="ct-grid-head ct-suit ct-${SUITS[s].colour}" title="${SUITS[s].name}">${SUITS[s].symbol}</span>`)).join("");
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

  /** On touch screens a long press on a bid shows its value (its `title`). */
  startLongPress(event) {
    const button = event.target.closest("[data-bid]");
    this.endLongPress();
    if (!button || event.pointerType === "mouse") return;
    this.pressTimer = setTimeout(() => {
      const tip = this.el.tip;
      tip.textContent = button.title;
      tip.hidden = false;
      const felt = this.el.felt.getBoundingClientRect();
      const rect = button.getBoundingClientRect();
      tip.style.left = `${Math.max(4, rect.left - felt.left + rect.width / 2 - tip.offsetWidth / 2)}px`;
      tip.style.top = `${rect.top - felt.top - tip.offsetHeight - 6}px`;
    }, LONG_PRESS_MS);
  }

  /** Hide the long-press tip (a moment later, so it can be read). */
  endLongPress() {
    clearTimeout(this.pressTimer);
    if (!this.el.tip.hidden) this.later(() => { this.el.tip.hidden = true; }, 1200);
  }

  // -- the joker led in no trumps --------------------------------------------------------------

  /** Whether leading this card needs a suit named ("play JK:S" style actions are legal). */
  canLeadJoker(card) {
    const legal = (this.view && this.view.legal_actions) || [];
    return legal.some((action) => action.startsWith(`play ${card}:`));
  }

  /** Seed 004 3.5: choose the suit the joker stands for, or cancel. */
  openJokerPicker(card) {
    this.jokerChoice = { card, suit: null };
    this.renderJokerPicker();
  }

  /** Close the suit picker without playing. */
  closeJokerPicker() {
    this.jokerChoice = null;
    this.el.joker.hidden = true;
  }

  /** The picker's state: which suits are legal, which is chosen. */
  renderJokerPicker() {
    const choice = this.jokerChoice;
    const { el } = this;
    el.joker.hidden = !choice;
    if (!choice) return;
    const legal = new Set(this.view.legal_actions || []);
    for (const button of el.joker.querySelectorAll("[data-suit]")) {
      const suit = button.dataset.suit;
      button.disabled = !legal.has(`play ${choice.card}:${suit}`);
      button.classList.toggle("selected", suit === choice.suit);
      button.setAttribute("aria-pressed", String(suit === choice.suit));
    }
    el.jokerConfirm.disabled = !choice.suit;
  }

  // -- sending ---------------------------------------------------------------------------------

  /**
   * Send an action; show the server's reason if it is refused. Clicks while an action is in
   * flight are ignored (briefly), so a double click cannot play two cards.
   * @param {string} action engine notation
   */
  act(action) {
    const now = Date.now();
    if (this.sendingSince && now - this.sendingSince < SEND_GUARD_MS) return;
    this.sendingSince = now;
    this.hints.clear();
    this.hideNotice();
    Promise.resolve()
      .then(() => this.ctx.send(action))
      .then(() => {
        if (action.startsWith("play ")) this.sound("play");
      })
      .catch((error) => this.showNotice((error && error.message) || String(error)))
      .finally(() => { this.sendingSince = 0; });
  }

  /**
   * Show a notice for a few seconds: an illegal action's reason (`error`), or news of the
   * game such as a declared marriage (`info`, drawn as news rather than as an error).
   */
  showNotice(text, kind = "error") {
    const notice = this.notice;
    notice.textContent = text;
    notice.dataset.kind = kind;
    notice.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => { notice.hidden = true; }, NOTICE_MS);
  }

  /** Hide the notice. */
  hideNotice() {
    clearTimeout(this.noticeTimer);
    this.notice.hidden = true;
  }

  /** Play a sound when the options ask for it; `options.js` may not offer `playSound`. */
  sound(kind) {
    if (!this.options.sound) return;
    import("./options.js")
      .then((module) => { if (typeof module.playSound === "function") module.playSound(kind); })
      .catch(() => {});
  }

  /**
   * A timeout that `destroy` cancels.
   * @param {Function} fn
   * @param {number} ms
   * @param {Set<number>} [group] the set it belongs to (the trick's timers can be cancelled alone)
   */
  later(fn, ms, group = this.timers) {
    const timer = setTimeout(() => {
      group.delete(timer);
      fn();
    }, ms);
    group.add(timer);
    return timer;
  }

  // -- the trick -------------------------------------------------------------------------------

  /** Whether to animate (the page is visible and motion is welcome). */
  motion() {
    return !document.hidden && !reducedMotion();
  }

  /** The cards of the trick being played, each with the suit a led joker named. */
  currentTrick() {
    const view = this.view;
    if (!view || !view.trick) return [];
    return view.trick.map((entry, index) => ({
      seat: entry.seat, card: entry.card,
      nominated: index === 0 && entry.card.startsWith("JK") && SUITS[view.led] ? view.led : null,
    }));
  }

  /**
   * Update the trick area. A message with a `trick` event first shows that finished trick
   * (the winner marked) for about a second, then sweeps it toward the winner, then shows the
   * trick now in play; updates arriving meanwhile wait (only the trick area waits: the hand
   * and the buttons are live all the time).
   */
  renderTrick(events) {
    const done = [...events].reverse().find((e) => e.type === "trick");
    const current = this.currentTrick();
    if (done && !document.hidden) {
      this.trickNext = current;
      this.showFinishedTrick(done);
    } else if (this.trickBusy) {
      this.trickNext = current;
    } else {
      this.drawTrick(current, null);
    }
  }

  /** Show a finished trick from its event, hold it, sweep it, then show what is next. */
  showFinishedTrick(done) {
    for (const timer of this.trickTimers) clearTimeout(timer);
    this.trickTimers.clear();
    this.trickBusy = true;
    const cards = done.cards.map((card, index) => ({
      seat: done.seats[index], card,
      nominated: index === 0 && card.startsWith("JK") ? done.nominated || null : null,
    }));
    this.drawTrick(cards, done.winner);
    this.sound("trick");
    const motion = this.motion();
    this.later(() => {
      if (motion) this.sweepTrick(done.winner);
      this.later(() => this.finishTrick(), motion ? SWEEP_MS : 0, this.trickTimers);
    }, TRICK_HOLD_MS + (motion ? SLIDE_MS / 2 : 0), this.trickTimers);
  }

  /** The trick animation is over: show the waiting state and run what waited for it. */
  finishTrick() {
    this.trickBusy = false;
    this.drawTrick(this.trickNext || this.currentTrick(), null, false);
    this.trickNext = null;
    const waiting = this.afterTrick;
    this.afterTrick = [];
    for (const fn of waiting) fn();
  }

  /** Run after the finished trick on show is swept (at once if none is). */
  whenTrickIdle(fn) {
    if (this.trickBusy) this.afterTrick.push(fn);
    else fn();
  }

  /** Where a seat's cards come from and go to on screen: its seat, or my hand. */
  anchorOf(seat) {
    if (seat === this.mySeat && this.el.hand.children.length) return this.el.hand;
    return this.seatElement(seat);
  }

  /**
   * Show these cards in the trick area, each in front of its player; cards not already shown
   * slide in from their player's side.
   * @param {Array<{seat: number, card: string, nominated: string|null}>} cards
   * @param {number|null} winner seat whose card is marked `.winner`
   * @param {boolean} [slide]
   */
  drawTrick(cards, winner, slide = true) {
    const area = this.el.trick;
    const keys = new Set(cards.map((c) => `${c.seat}:${c.card}:${c.nominated || ""}`));
    for (const [key, element] of this.trickCards) {
      if (!keys.has(key)) {
        element.remove();
        this.trickCards.delete(key);
      }
    }
    const motion = slide && this.motion();
    cards.forEach((entry, order) => {
      const key = `${entry.seat}:${entry.card}:${entry.nominated || ""}`;
      let element = this.trickCards.get(key);
      const fresh = !element;
      if (fresh) {
        element = document.createElement("div");
        element.className = `ct-played pos-${this.positionOf(entry.seat)}`;
        element.dataset.card = entry.card;
        element.dataset.seat = String(entry.seat);
        element.setAttribute("aria-label", `${this.nameOf(entry.seat)}: ${cardName(entry.card)}${entry.nominated ? ` as ${SUITS[entry.nominated].name}` : ""}`);
        element.innerHTML = cardSVG(entry.card, { nominated: entry.nominated || undefined });
        this.trickCards.set(key, element);
        area.append(element);
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
  sweepTrick(winner) {
    const target = this.anchorOf(winner).getBoundingClientRect();
    for (const element of this.trickCards.values()) {
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

  // -- events: end of hand, sounds -------------------------------------------------------------

  /** React to the events of a message: the end of a hand, the end of the match, my turn. */
  renderEvents(events) {
    const scored = events.find((e) => e.type === "hand_scored");
    const over = events.find((e) => e.type === "match_over");
    if (scored || over) this.whenTrickIdle(() => this.showResult(scored, over));
    if (this.isMyTurn() && events.length) this.sound("turn");
  }

  /**
   * Seed 004 3.6: in the middle, whether the contract was made, the points of each side and
   * the running score; at the end of a match, the winners.
   */
  showResult(scored, over) {
    const parts = [];
    if (scored) {
      parts.push(`<div class="ct-result-title">${this.verdictHTML(scored)}</div>`);
      const sides = this.teams().map((_, team) => team);
      parts.push(`<div class="ct-result-points">${sides.map((team) =>
        `<span class="team-${team}">${esc(this.sideName(team, " & "))} <b>${signed(scored.points[team])}</b></span>`).join("")}</div>`);
      parts.push(`<div class="ct-result-score">Score: ${sides.map((team) =>
        `<span class="team-${team}">${esc(this.sideName(team, " & "))} <b>${score(scored.scores[team])}</b></span>`).join(" · ")}</div>`);
      if (scored.summary) parts.push(`<div class="ct-result-summary">${esc(scored.summary)}</div>`);
    }
    if (over) {
      const winner = over.winner;
      const text = winner === null || winner === undefined ? "The match is over."
        : over.scores.length === 2
          ? `${this.sideName(winner)} win the match, ${score(over.scores[winner])} to ${score(over.scores[1 - winner])}!`
          : `${this.sideName(winner)} win the match with ${score(over.scores[winner])}!`;
      parts.push(`<div class="ct-result-match">${esc(text)} A new match starts in a moment.</div>`);
    }
    const result = this.el.result;
    result.innerHTML = parts.join("");
    result.classList.toggle("made", Boolean(scored && scored.made));
    result.classList.toggle("failed", Boolean(scored && scored.made === false));
    result.hidden = false;
    clearTimeout(this.resultTimer);
    this.resultTimer = setTimeout(() => { result.hidden = true; }, over ? RESULT_MS * 2 : RESULT_MS);
  }

  /** "Alice and Bob made it through: 7♥, +200" / "went back: −200" / the summary. */
  verdictHTML(scored) {
    const ladder = (this.view && this.view.ladder) || [];
    if (!scored.contract || scored.contractor === null || scored.contractor === undefined) {
      return esc(scored.summary || "Nobody bid.");
    }
    const side = this.teamOf(scored.contractor);
    const points = scored.points[side];
    if (scored.made === null || scored.made === undefined) {
      return `${bidHTML(scored.contract, ladder)}: ${esc(scored.summary)}`;
    }
    const verdict = scored.made ? "made it through" : "went back";
    return `${esc(this.sideName(side))} ${verdict}: ${bidHTML(scored.contract, ladder)}, ${signed(points)}`;
  }

  // -- the turn clock --------------------------------------------------------------------------

  /** The countdown by the name of the seat on the clock (`message.clock`). */
  renderClock() {
    clearInterval(this.clockTimer);
    for (const element of Object.values(this.el.seats)) {
      element.querySelector(".ct-clock").hidden = true;
    }
    const clock = this.message.clock;
    if (!clock || clock.deadline === null || clock.deadline === undefined) return;
    const element = this.seatElement(clock.seat).querySelector(".ct-clock");
    const tick = () => {
      const seconds = Math.max(0, Math.ceil(clock.deadline - Date.now() / 1000));
      element.textContent = `${seconds}s`;
      element.classList.toggle("urgent", seconds <= 5);
      if (!seconds) clearInterval(this.clockTimer);
    };
    element.hidden = false;
    tick();
    this.clockTimer = setInterval(tick, 250);
  }
}
