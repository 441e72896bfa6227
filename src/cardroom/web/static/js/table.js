/**
 * The card table, whatever the game: the seats around the felt (you at the bottom), your
 * hand, the trick with its animations (trick.js), the status and contract lines, the
 * end of a hand held on screen with its result (hand_end.js), the turn highlight, the turn
 * clock, notices and hints (hint.js).
 *
 * What a game adds (its bidding, its kitty or bank, its pickers, the wording of its phases,
 * its contract line and verdict) comes from its widgets, a {@link GameWidgets} subclass
 * (game_widgets.js) that the game's module builds the table with: five_hundred.js for 500,
 * thousand.js for 1000; table_games.js says which module draws which game.
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

import { Announcer } from "./announce.js";
import { cardSVG, backSVG, cardName } from "./cards.js";
import { profileHref, ratingText, seatName } from "./dom.js";
import { GameWidgets } from "./game_widgets.js";
import { HandEnd } from "./hand_end.js";
import { HintControl } from "./hint.js";
import { esc } from "./markup.js";
import { TrickArea } from "./trick.js";

/** Screen places of the seats, clockwise from mine: play passes to the left. */
const POSITIONS = ["bottom", "left", "top", "right"];
/** Every place a seat can take, clockwise from the bottom (six seats use them all). */
const ALL_POSITIONS = ["bottom", "left", "top-left", "top", "top-right", "right"];
/** The places used by each number of seats, clockwise from mine (three: nobody opposite). */
const POSITIONS_BY_COUNT = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: POSITIONS,
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ALL_POSITIONS,
};
/** Team colour classes: one per side, up to six. */
const TEAM_CLASSES = ["team-0", "team-1", "team-2", "team-3", "team-4", "team-5"];

/** How long a notice stays up (ms). */
const NOTICE_MS = 4500;
/** A click arriving while an action is in flight is ignored for at most this long (ms). */
const SEND_GUARD_MS = 1500;
/** After my turn comes or my cards move, my cards and buttons ignore the pointer for this
 * long (ms): the second tap of a double tap, or a tap meant for a card that has just slid
 * away, never picks what is now under the finger. */
const SETTLE_MS = 350;

/** My cards and the buttons of the game's panels: what a misclick must not choose. */
const CHOICES = ".ct-card, .ct-bid, .ct-button, .ct-joker-suit, .ct-call-card";

/** The static skeleton of the table; `update` fills it, a game's widgets add their panels. */
function skeleton() {
  const seat = (pos) => `
    <section class="ct-seat pos-${pos}" data-testid="seat" data-pos="${pos}">
      <div class="ct-plate">
        <span class="ct-spinner" aria-hidden="true"></span>
        <a class="ct-name" data-testid="seat-name"></a>
        <span class="ct-you" hidden>(you)</span>
        <span class="ct-rating" data-testid="seat-rating" title="Rating in this game" hidden></span>
        <span class="ct-presence" data-testid="seat-presence" hidden></span>
        <span class="ct-dealer" title="Dealer" hidden>D</span>
        <span class="ct-lastbid" data-testid="seat-bid"></span>
        <span class="ct-tricks" data-testid="seat-tricks"></span>
        <span class="ct-clock" data-testid="clock" hidden></span>
      </div>
      <div class="ct-seat-cards" aria-hidden="true"></div>
    </section>`;
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
      <div class="ct-news" data-testid="news" role="status" hidden></div>
      <div class="ct-center">
        <div class="ct-trick" data-testid="trick" role="group" aria-label="Cards on the table"></div>
      </div>
      <div class="ct-overlay">
        <div class="ct-result" data-testid="hand-result" role="status" tabindex="-1" hidden></div>
        <div class="ct-panel ct-leaving" data-testid="leave-confirm" role="alertdialog" aria-labelledby="ct-leave-title" hidden>
          <div class="ct-panel-title" id="ct-leave-title">Leave the match?</div>
          <p class="ct-leaving-text">A bot plays your seat from now on. Come back from the lobby to take it over again.</p>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="leave-cancel">Stay</button>
            <button type="button" class="ct-button ct-primary" data-testid="leave-confirm-button">Leave</button>
          </div>
        </div>
      </div>
    </div>
    <div class="ct-mine">
      <div class="ct-hand ct-cards" data-testid="hand" role="group" aria-label="Your hand"></div>
    </div>
  </div>`;
}

export class TableView {
  /**
   * @param {HTMLElement} root where the table is drawn
   * @param {{send: (action: string) => Promise<unknown>, hint?: () => Promise<object>,
   *   me: {player_id: string, name: string}, options: {cardBack: number, sound: boolean},
   *   rulesLink: string, onLeave: () => void, replay?: boolean, challenge?: {deals: number}|null}} ctx
   *   a replay (replay.js) draws the table from a seat without it being anybody's turn, "(you)"
   *   only by the viewer's own seat, and no Leave button; a daily challenge's table (each deal a
   *   match of its own, `deals` of them) has no Leave button and words the end of a deal so
   * @param {typeof GameWidgets} [Widgets] the game's widgets (by default none: a plain table)
   */
  constructor(root, ctx, Widgets = GameWidgets) {
    this.root = root;
    this.ctx = ctx;
    this.options = { cardBack: 0, sound: false, ...(ctx.options || {}) };
    /** Drawn by a replay: nothing here is anybody's to play. */
    this.replaying = Boolean(ctx.replay);
    /** The last `table` message and its view. */
    this.message = null;
    this.view = null;
    /** My seat, or null when watching. */
    this.mySeat = null;
    /** Card buttons by card text, shared by every card area so a card moving between two
     * areas (a kitty swap) moves one node. */
    this.cardButtons = new Map();
    /** When the action in flight was sent (0: none). */
    this.sendingSince = 0;
    /** Keys of what each seat's face-down cards were last drawn from (to skip redraws). */
    this.seatCardKeys = new Map();
    this.timers = new Set();
    this.clockTimer = 0;
    this.noticeTimer = 0;
    this.newsTimer = 0;
    this.settleTimer = 0;

    root.innerHTML = skeleton();
    this.el = this.collectElements();
    this.notice = this.findNotice();
    this.el.rules.href = ctx.rulesLink || "#";
    // A daily challenge's table is its player's all day: nobody leaves it (the server refuses).
    this.el.leave.hidden = this.replaying || Boolean(ctx.challenge);
    this.bindEvents();
    /** The end of a hand: held on screen with its result before the next deal. */
    this.ending = new HandEnd(this);
    /** The trick in the middle and its animations. */
    this.trick = new TrickArea(this);
    /** What this table's game adds: its panels, its wording (game_widgets.js). */
    this.game = new Widgets(this);
    this.el.table.dataset.game = this.game.name;
    /** The Hint button and the marks of a hint (casual tables). */
    this.hints = new HintControl(this);
    /** The table in words for a screen reader: a polite live region (announce.js). */
    this.announcer = new Announcer(this);
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
      center: q(".ct-center"), trick: q("[data-testid=trick]"), overlay: q(".ct-overlay"),
      result: q("[data-testid=hand-result]"), hand: q("[data-testid=hand]"),
      leaving: q("[data-testid=leave-confirm]"), news: q("[data-testid=news]"),
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

  /** The table's listeners: my hand, Leave, the result, options changes. */
  bindEvents() {
    const { el } = this;
    // Misclicks stop here, before any card's or panel's own listener, whatever the game.
    this.root.addEventListener("click", (event) => {
      if (this.misclick(event)) {
        event.stopPropagation();
        event.preventDefault();
      }
    }, true);
    el.leave.addEventListener("click", () => this.askToLeave());
    el.news.addEventListener("click", () => { el.news.hidden = true; });
    el.leaving.querySelector("[data-testid=leave-cancel]").addEventListener("click", () => {
      el.leaving.hidden = true;
    });
    el.leaving.querySelector("[data-testid=leave-confirm-button]").addEventListener("click", () => {
      el.leaving.hidden = true;
      this.leave();
    });
    this.cardArea(el.hand, "hand");
    this.onOptions = (event) => {
      this.options = { ...this.options, ...(event.detail || {}) };
      this.seatCardKeys.clear();
      if (this.message) this.renderSeats();
    };
    window.addEventListener("cardroom:options", this.onOptions);
  }

  /**
   * Make an element holding my card buttons answer clicks (the game's `onCardClick`, told
   * which area) and arrow keys (the focus moves between its cards; Enter and Space click).
   * @param {HTMLElement} area
   * @param {string} name the area's name for the game ("hand", "kitty", …)
   */
  cardArea(area, name) {
    area.addEventListener("click", (event) => {
      const button = event.target.closest("[data-card]");
      if (button && this.view) this.game.onCardClick(button.dataset.card, name);
    });
    area.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
      const buttons = [...area.querySelectorAll("[data-card]")];
      if (!step || !buttons.length) return;
      event.preventDefault();
      const index = buttons.indexOf(document.activeElement);
      buttons[index < 0 ? 0 : (index + step + buttons.length) % buttons.length].focus();
    });
  }

  /** Leave: at once while no match is played; during one, only once confirmed (a bot takes
   * the seat over, so a slip of the finger must not hand it away). */
  askToLeave() {
    const playing = this.message && this.message.status === "playing" && this.mySeat !== null;
    if (!playing) {
      this.leave();
      return;
    }
    this.el.leaving.hidden = false;
    this.el.leaving.querySelector("[data-testid=leave-cancel]").focus();
  }

  leave() {
    if (this.ctx.onLeave) this.ctx.onLeave();
  }

  // -- the update ------------------------------------------------------------------------------

  /**
   * Show a new `table` message (docs/protocol.md). A message that ends a hand (or a match) is
   * held back behind its last trick and its result (hand_end.js).
   * @param {object} message
   */
  update(message) {
    if (!message) return;
    if (this.message && this.message.table_id !== message.table_id) this.resetLocalState();
    // A daily challenge's table is its player's all day: nobody leaves it (the server refuses).
    this.el.leave.hidden = this.replaying || Boolean(message.challenge || this.ctx.challenge);
    if (!this.ending.take(message)) this.draw(message, message.events || []);
  }

  /**
   * At a daily challenge's table, what the table message says of it (`{game, day, deals}`;
   * until a message says so, what the page knows); null at any other table.
   * @returns {{deals: number}|null}
   */
  challenge() {
    return this.message?.challenge || this.ctx.challenge || null;
  }

  /** The message held back while the end of a hand is on show (null otherwise). */
  get held() {
    return this.ending.held;
  }

  /** Draw a message: the shared parts, then the game's. */
  draw(message, events) {
    const wasMyTurn = this.isMyTurn();
    const phaseBefore = this.view ? this.view.phase : "";
    const handBefore = this.view && this.view.hand ? this.view.hand.join() : "";
    const focusedBefore = this.root.contains(document.activeElement) ? document.activeElement : null;
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

    this.game.sync();
    this.renderSeats();
    this.renderStatus();
    this.renderContract();
    this.renderHand();
    this.trick.render(events);
    this.game.render(events);
    this.renderEvents(events);
    this.renderClock();
    this.hints.render();
    if (!this.replaying) this.announcer.events(events);
    const handNow = view && view.hand ? view.hand.join() : "";
    if ((this.isMyTurn() && !wasMyTurn) || handNow !== handBefore) this.settle();
    const dropped = focusedBefore !== null && !focusedBefore.isConnected
      && !this.root.contains(document.activeElement);
    if (dropped) this.refocus(focusedBefore);
    if (this.isMyTurn() && (!wasMyTurn || view.phase !== phaseBefore || dropped)) this.focusTurn();
  }

  /**
   * A redraw took away the element the keyboard's focus was on (a card drawn anew, say):
   * put the focus on its successor, the element of the same card or bid, so that a keyboard
   * player is not sent back to the top of the page by a message that only changed the table.
   * @param {Element} gone the element that had the focus
   */
  refocus(gone) {
    const data = /** @type {HTMLElement} */ (gone).dataset || {};
    const key = data.card ? `[data-card="${CSS.escape(data.card)}"]`
      : data.bid ? `[data-bid="${CSS.escape(data.bid)}"]`
      : data.testid ? `[data-testid="${CSS.escape(data.testid)}"]` : "";
    const scope = data.card ? this.el.hand : this.root;  // not the same card in the trick
    const successor = key ? scope.querySelector(`${key}:not([hidden])`) : null;
    if (successor instanceof HTMLElement) successor.focus({ preventScroll: true });
  }

  /**
   * My turn came (or its phase changed): put the keyboard's focus where the turn is taken (the
   * game says where: a bid, the first card I may play, …), unless it is somewhere else on
   * purpose: outside the table (the chat, the options), or already on a card I may play or
   * in a panel on show.
   */
  focusTurn() {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (!lost) {
      if (!this.root.contains(active)) return;
      const kept = active.closest(".ct-panel:not([hidden]), .ct-exchange:not([hidden])")
        || (active.matches(".ct-card.playable") && !active.closest("[hidden]"));
      if (kept) return;
    }
    const target = this.game.turnFocus();
    if (target && target !== active) target.focus({ preventScroll: true });
  }

  /** My cards and buttons ignore the pointer for a moment (`SETTLE_MS`): the screen changed
   * under it. Drawn as `.settling` (CSS turns pointer events off). */
  settle() {
    const table = this.el.table;
    table.classList.add("settling");
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => table.classList.remove("settling"), SETTLE_MS);
  }

  /**
   * Whether a click on one of my cards or choices is not meant: the second click of a double
   * click or tap, or one landing while the screen settles (a keyboard's Enter, detail 0, is
   * always meant).
   * @param {MouseEvent} event
   */
  misclick(event) {
    if (!event.target.closest(CHOICES)) return false;
    return event.detail > 1 || (event.detail === 1 && this.el.table.classList.contains("settling"));
  }

  /** Forget choices tied to another table. */
  resetLocalState() {
    this.game.reset();
    this.ending.reset();
  }

  /** Stop timers and listeners and empty the root. */
  destroy() {
    window.removeEventListener("cardroom:options", this.onOptions);
    clearTimeout(this.settleTimer);
    this.ending.destroy();
    this.hints.destroy();
    this.game.destroy();
    this.trick.cancel();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    clearInterval(this.clockTimer);
    clearTimeout(this.noticeTimer);
    clearTimeout(this.newsTimer);
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

  /** Who acts for a seat: "Frank's bot" while a bot plays for an away player. */
  actorName(seat) {
    const info = this.message && this.message.seats ? this.message.seats[seat] : null;
    return info && info.away ? `${this.nameOf(seat)}'s bot` : this.nameOf(seat);
  }

  /** Who a seat is in a sentence: "you" for me. */
  whoIs(seat) {
    return seat === this.mySeat ? "you" : this.nameOf(seat);
  }

  /** The sides' seats (the game says). */
  teams() {
    return this.game.teams();
  }

  /** The side of a seat. */
  teamOf(seat) {
    return this.teams().findIndex((team) => team.includes(seat));
  }

  /** A side's players by name: "Alice and Bob". */
  sideName(team, joiner = " and ") {
    return this.teams()[team].map((seat) => this.nameOf(seat)).join(joiner);
  }

  /** Whether the seat is the viewer's: their own seat, or in a replay the one they held. */
  isMe(seat, info) {
    if (!this.replaying) return seat === this.mySeat;
    return Boolean(info.player_id) && info.player_id === this.ctx.me?.player_id;
  }

  /** Whether it is my turn. */
  isMyTurn() {
    return !this.replaying && Boolean(this.view) && this.mySeat !== null && this.view.to_act === this.mySeat
      && this.view.phase !== "over";
  }

  /** My legal actions now, in the engine's notation. */
  legal() {
    return (this.view && this.view.legal_actions) || [];
  }

  /** Nameplates, last bids, tricks, turn highlight and each seat's cards. */
  renderSeats() {
    const view = this.view;
    const game = this.game;
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
      this.renderPresence(seat, element, info);
      const toAct = Boolean(view) && view.to_act === seat && view.phase !== "over";
      element.classList.toggle("to-act", toAct);
      element.classList.toggle("sitting-out", Boolean(view) && game.isSittingOut(seat));
      this.renderName(seat, element, info);
      element.querySelector(".ct-you").hidden = !this.isMe(seat, info);
      element.querySelector(".ct-dealer").hidden = !view || view.dealer !== seat;
      const bid = lastBids.get(seat);
      const bidElement = element.querySelector(".ct-lastbid");
      bidElement.innerHTML = bid ? game.seatBidHTML(bid) : "";
      bidElement.classList.toggle("passed", Boolean(bid) && bid.bid === "pass");
      bidElement.hidden = !bid;
      const tricks = element.querySelector(".ct-tricks");
      const tricksText = game.seatTricksText(seat);
      tricks.hidden = !tricksText;
      tricks.textContent = tricksText;
      this.renderSeatCards(seat, element, info);
    }
  }

  /**
   * The seat's name, a link to the player's (or the bot's) profile, and its rating in this
   * game beside it. An empty seat's name links nowhere.
   */
  renderName(seat, element, info) {
    const name = element.querySelector(".ct-name");
    name.textContent = this.nameOf(seat);
    if (info.player_id) {
      name.href = profileHref(info.player_id);
      name.title = `${this.nameOf(seat)}: profile and rating`;
    } else {
      name.removeAttribute("href");
      name.removeAttribute("title");
    }
    const rating = element.querySelector(".ct-rating");
    rating.textContent = ratingText(info.rating);
    rating.hidden = !rating.textContent;
  }

  /**
   * A player's absence, short by the name ("bot playing", "offline") and in full on hover.
   * Away: a bot plays for them. Offline: not connected, the seat waits for them.
   */
  renderPresence(seat, element, info) {
    const away = Boolean(info.away);
    const offline = !away && Boolean(info.name) && !info.bot && info.connected === false;
    element.classList.toggle("away", away);
    element.classList.toggle("offline", offline);
    const presence = element.querySelector(".ct-presence");
    const name = this.nameOf(seat);
    presence.textContent = away ? "bot playing" : offline ? "offline" : "";
    presence.title = away ? `A bot plays for ${name} until they come back`
      : offline ? `${name} lost the connection: the seat waits for them` : "";
    presence.hidden = !away && !offline;
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
      else if (info.name || info.bot) count = this.game.handSize;
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

  // -- status and contract lines ---------------------------------------------------------------

  /** The status bar: what the table waits for. */
  renderStatus() {
    this.el.status.textContent = this.statusText();
  }

  /** The status sentence for the current state (the game words its phases). */
  statusText() {
    const view = this.view;
    const seats = this.message.seats || [];
    if (!view) {
      const missing = seats.filter((s) => !s.name && !s.bot).length;
      if (missing) return `Waiting for ${missing} more player${missing === 1 ? "" : "s"} to join`;
      return "Starting the match…";
    }
    const ending = this.ending.statusText();
    if (ending) return ending;
    const deal = view.phase === "over" ? this.ending.challengeDeal() : null;
    if (deal) {
      return deal.last ? "Every deal of today's challenge is played" : "The deal is over: the next one follows";
    }
    const actor = view.to_act;
    const who = actor === null || actor === undefined ? "" : this.actorName(actor);
    return this.game.phaseStatus(view, this.isMyTurn(), who);
  }

  /** The contract line: the game's (scores, contract, trumps, tricks or points). */
  renderContract() {
    this.el.contract.innerHTML = this.view ? this.game.contractHTML(this.view) : "";
  }

  // -- my hand ---------------------------------------------------------------------------------

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
   * Put these cards' buttons into an area in order, moving only what changed; mark each
   * `.playable` or `.dimmed`, and the one the game has selected in this area.
   * @param {HTMLElement} area
   * @param {string[]} cards
   * @param {string} areaName "hand", or a game's own card area ("kitty")
   */
  fillCards(area, cards, areaName) {
    const wanted = new Set(cards);
    for (const child of [...area.children]) {
      if (!wanted.has(child.dataset.card)) child.remove();
    }
    const selected = this.game.selectedCard();
    cards.forEach((card, index) => {
      const button = this.cardButton(card);
      if (area.children[index] !== button) area.insertBefore(button, area.children[index] || null);
      const playable = this.game.isPlayable(card);
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

  /** My hand: my cards (those a game's panel holds left out), or backs until I look. */
  renderHand() {
    const view = this.view;
    const hand = this.el.hand;
    const unseen = view && this.mySeat !== null && !view.hand ? view.hand_sizes[this.mySeat] : 0;
    if (unseen) {
      const key = `down:${unseen}:${this.options.cardBack}`;
      if (hand.dataset.key !== key) {
        hand.dataset.key = key;
        hand.innerHTML = Array.from({ length: unseen }, () => `<span class="ct-card ct-facedown" aria-hidden="true">${backSVG(this.options.cardBack)}</span>`).join("");
        hand.setAttribute("aria-label", "Your hand, face down: you have not looked at it");
        hand.style.setProperty("--count", String(unseen));
      }
      hand.hidden = false;
      return;
    }
    if (hand.dataset.key) {
      delete hand.dataset.key;
      hand.replaceChildren();
      hand.setAttribute("aria-label", "Your hand");
    }
    this.fillCards(hand, view && view.hand ? this.game.handCards(view.hand) : [], "hand");
    hand.hidden = this.mySeat === null;
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
   * Show a notice for a few seconds: an illegal action's reason (`error`, the page's notice),
   * or news of the game such as a declared marriage (`info`: on the felt, at the top between
   * the seats, so it covers neither the page's header nor the table's own bar).
   */
  showNotice(text, kind = "error") {
    const info = kind === "info";
    if (info) this.announcer.news(text);
    const notice = info ? this.el.news : this.notice;
    notice.textContent = text;
    notice.hidden = false;
    const timer = info ? "newsTimer" : "noticeTimer";
    clearTimeout(this[timer]);
    this[timer] = setTimeout(() => { notice.hidden = true; }, NOTICE_MS);
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

  /** Run after the finished trick on show is swept (at once if none is). */
  whenTrickIdle(fn) {
    this.trick.whenIdle(fn);
  }

  // -- events: end of hand, sounds -------------------------------------------------------------

  /** React to the events of a message: the end of a hand, the end of the match, my turn. */
  renderEvents(events) {
    this.ending.render(events);
    if (this.isMyTurn() && events.length) this.sound("turn");
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
