/**
 * The table for 1000: the shared {@link TableView} (seats, hand, trick animation, clock,
 * notices, reconnection) built with 1000's widgets, which add what 1000 does differently.
 *
 * - Three seats (four when the dealer sits out), each player for themself; seven cards each.
 * - Bidding in points: a stepper through the legal bids only (from `view.legal_actions`),
 *   "Look at cards" while one's cards are still face down, blind bids until then.
 * - The bank in the middle (backs while hidden, faces once shown), the three discards or the
 *   two gifts picked in the hand, then the final bet on the same stepper.
 * - Leading the king or queen of a marriage asks "Declare marriage (+100)" or just play it.
 * - The contract line shows the bet, the trumps and everybody's card points.
 *
 * Like the 500 table it decides no legality: every choice offered is a legal action's text.
 *
 * @module thousand
 */

import { backSVG, cardName, cardSVG, SUITS } from "./cards.js";
import { GameWidgets } from "./game_widgets.js";
import { esc, signed, score, suitHTML } from "./markup.js";
import { TableView } from "./table.js";

/** "bid 120", "bid 120 blind", "bet 160". */
const POINTS_ACTION = /^(bid|bet) (\d+)( blind)?$/;

/** The panels 1000 adds to the felt's overlay. */
function panels() {
  return `
    <div class="ct-panel ct-k-bidding" data-testid="k-bidding" hidden>
      <div class="ct-panel-title"></div>
      <div class="ct-k-range muted small" data-testid="bid-range"></div>
      <div class="ct-stepper" data-testid="bid-stepper">
        <button type="button" class="ct-button ct-step" data-testid="bid-down" aria-label="Lower">−</button>
        <output class="ct-step-value" data-testid="bid-value" aria-live="polite"></output>
        <button type="button" class="ct-button ct-step" data-testid="bid-up" aria-label="Higher">+</button>
      </div>
      <div class="ct-k-quick" data-testid="bid-quick"></div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button" data-testid="look">Look at cards</button>
        <button type="button" class="ct-button" data-testid="pass">Pass</button>
        <button type="button" class="ct-button ct-primary" data-testid="bid-submit">Bid</button>
      </div>
    </div>
    <div class="ct-panel ct-k-pick" data-testid="k-pick" hidden>
      <div class="ct-panel-title"></div>
      <div class="ct-k-picked ct-cards" data-testid="picked"></div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button" data-testid="pick-clear">Clear</button>
        <button type="button" class="ct-button ct-primary" data-testid="discard-submit" disabled>Discard</button>
      </div>
    </div>
    <div class="ct-panel ct-k-marriage" data-testid="marriage-picker" role="dialog" aria-label="Declare a marriage?" hidden>
      <div class="ct-panel-title"></div>
      <div class="ct-panel-actions">
        <button type="button" class="ct-button" data-testid="marriage-plain">Just play it</button>
        <button type="button" class="ct-button ct-primary" data-testid="marriage-declare">Declare marriage</button>
      </div>
    </div>`;
}

export class ThousandWidgets extends GameWidgets {
  name = "1000";
  handSize = 7;

  /** @param {TableView} table */
  constructor(table) {
    super(table);
    table.el.table.classList.add("ct-thousand");
    table.el.overlay.insertAdjacentHTML("beforeend", panels());
    const q = (selector) => table.root.querySelector(selector);
    const bank = document.createElement("div");
    bank.className = "ct-k-bank";
    bank.dataset.testid = "bank";
    bank.setAttribute("role", "group");
    bank.setAttribute("aria-label", "The bank");
    table.el.center.prepend(bank);
    /** The parts of 1000's panels that change. */
    this.el = {
      bank,
      kBidding: q("[data-testid=k-bidding]"), kTitle: q(".ct-k-bidding .ct-panel-title"),
      kRange: q("[data-testid=bid-range]"), kValue: q("[data-testid=bid-value]"),
      kDown: q("[data-testid=bid-down]"), kUp: q("[data-testid=bid-up]"),
      kQuick: q("[data-testid=bid-quick]"), kLook: q("[data-testid=look]"),
      pass: q("[data-testid=pass]"), bidSubmit: q("[data-testid=bid-submit]"),
      kPick: q("[data-testid=k-pick]"), kPickTitle: q(".ct-k-pick .ct-panel-title"),
      kPicked: q("[data-testid=picked]"), kPickClear: q("[data-testid=pick-clear]"),
      discard: q("[data-testid=discard-submit]"),
      kMarriage: q("[data-testid=marriage-picker]"),
      kMarriageTitle: q(".ct-k-marriage .ct-panel-title"),
      kDeclare: q("[data-testid=marriage-declare]"), kPlain: q("[data-testid=marriage-plain]"),
    };
    /** Index of the chosen value among the legal bids or bets shown on the stepper. */
    this.stepIndex = 0;
    this.stepKey = "";
    /** The blind bid asked to be confirmed (its action): a blind bid doubles every point of
     * the deal, so it is made by two clicks, never by a slip on the panel's main button. */
    this.blindAsked = "";
    /** Cards picked to discard or give, in order, and for which deal and phase. */
    this.picked = [];
    this.pickKey = "";
    /** The marriage card being led: {card, points}. */
    this.marriageChoice = null;
    this.bindThousand();
  }

  /** Listeners of 1000's panels. */
  bindThousand() {
    const { el, table } = this;
    el.kDown.addEventListener("click", () => this.step(-1));
    el.kUp.addEventListener("click", () => this.step(1));
    el.kQuick.addEventListener("click", (event) => {
      const button = event.target.closest("[data-value]");
      if (!button) return;
      const values = this.stepValues();
      this.stepIndex = Math.max(0, values.findIndex((v) => v.action === button.dataset.action));
      this.renderBidding();
    });
    el.kLook.addEventListener("click", () => table.act("look"));
    el.pass.addEventListener("click", () => table.act("pass"));
    el.bidSubmit.addEventListener("click", () => {
      const chosen = this.stepValues()[this.stepIndex];
      if (!chosen) return;
      if (chosen.blind && this.blindAsked !== chosen.action) {
        this.blindAsked = chosen.action;
        this.renderBidding();
        return;
      }
      this.blindAsked = "";
      table.act(chosen.action);
    });
    el.kPickClear.addEventListener("click", () => {
      this.picked = [];
      this.renderHand();
      this.renderPick();
    });
    el.discard.addEventListener("click", () => {
      const verb = table.view.phase === "give" ? "give" : "discard";
      table.act(`${verb} ${this.picked.join(" ")}`);
    });
    el.kPicked.addEventListener("click", (event) => {
      const button = event.target.closest("[data-card]");
      if (button) this.togglePick(button.dataset.card);
    });
    el.kDeclare.addEventListener("click", () => this.playMarriage(true));
    el.kPlain.addEventListener("click", () => this.playMarriage(false));
  }

  // -- the life of the widgets -----------------------------------------------------------------

  /** A new deal or phase forgets the picks; a marriage no longer legal closes its picker. */
  sync() {
    const { view, message } = this.table;
    const key = view ? `${message.match_number}:${view.hand_number}:${view.phase}` : "";
    if (key !== this.pickKey || !this.isPicking()) {
      this.pickKey = key;
      this.picked = [];
    }
    if (this.marriageChoice && !(this.table.legal().includes(`play ${this.marriageChoice.card} marriage`))) {
      this.closeMarriage();
    }
  }

  /** The bidding panel, the picks, the bank, the marriages in my hand; news of a marriage. */
  render(events) {
    const table = this.table;
    this.renderBidding();
    this.markMarriages();
    this.renderPick();
    this.renderBank();
    for (const event of events) {
      if (event.type === "marriage") {
        const suit = SUITS[event.suit];
        table.whenTrickIdle(() => table.showNotice(`${this.whoIsCapital(event.seat)} declared the ${suit.name} marriage ${suit.symbol}: +${event.points}. ${suit.name[0].toUpperCase()}${suit.name.slice(1)} are trumps.`, "info"));
      }
    }
  }

  /** "You" or the name, to start a sentence. */
  whoIsCapital(seat) {
    return seat === this.table.mySeat ? "You" : this.table.nameOf(seat);
  }

  // -- seats -----------------------------------------------------------------------------------

  /** The dealer of a four-player table sits out the deal. */
  isSittingOut(seat) {
    return Boolean(this.table.view) && this.table.view.sitting_out === seat;
  }

  /** Each player is their own side. */
  teams() {
    return Array.from({ length: this.table.seatCount() }, (_, seat) => [seat]);
  }

  /** By a player's score: on the barrel (for how many deals), and their bolts. */
  scoreTags(seat) {
    const view = this.table.view;
    if (!view) return [];
    const tags = [];
    const barrel = view.barrel?.[seat];
    if (barrel?.on) {
      const deals = view.rules?.barrel_deals;
      tags.push({ kind: "barrel", testid: "barrel", text: `on the barrel${deals ? ` ${barrel.deals}/${deals}` : ""}`,
        title: "No points as an opponent: only a contract made counts" });
    }
    if (view.rules?.bolts && view.bolts?.[seat]) {
      tags.push({ kind: "bolts", testid: "bolts", text: `bolts ${view.bolts[seat]}/${view.rules.bolts}`,
        title: "Deals without a trick; a full set costs points" });
    }
    if (view.sitting_out === seat) tags.push({ text: "deals", title: "The dealer sits this deal out" });
    return tags;
  }

  seatBidHTML(entry) {
    if (entry.bid === "pass") return "Pass";
    return `${esc(entry.bid)}${entry.blind ? ' <span class="ct-blind">blind</span>' : ""}`;
  }

  seatTricksText(seat) {
    const view = this.table.view;
    if (!view || view.phase !== "play" || !view.active.includes(seat)) {
      return view && this.isSittingOut(seat) ? "sitting out" : "";
    }
    const tricks = view.tricks_won[seat];
    const marriages = view.marriage_points[seat] ? ` +${view.marriage_points[seat]}` : "";
    return `${tricks} trick${tricks === 1 ? "" : "s"} · ${view.card_points[seat]} pts${marriages}`;
  }

  /**
   * Where the keyboard's focus goes on my turn: Look at cards while mine are face down, else
   * the Bid (or Bet) button; my first card while I pick discards or gifts; else as any game.
   */
  turnFocus() {
    const { el } = this;
    if (!el.kBidding.hidden) return !el.kLook.hidden ? el.kLook : el.bidSubmit.disabled ? el.pass : el.bidSubmit;
    if (!el.kPick.hidden) return this.table.el.hand.querySelector("button.ct-card") || el.discard;
    return super.turnFocus();
  }

  /** My legal actions now. */
  legal() {
    return this.table.legal();
  }

  // -- status and contract ---------------------------------------------------------------------

  phaseStatus(view, mine, who) {
    const table = this.table;
    switch (view.phase) {
      case "bidding":
        if (!mine) return `Waiting for ${who} to bid`;
        return view.hand ? "Your turn to bid" : "Your turn to bid: blind, or look at your cards first";
      case "discard":
        return mine ? "Pick 3 cards to discard face down" : `${who} took the bank and is discarding`;
      case "give": {
        if (!mine) return `${who} took the bank and is giving a card to each opponent`;
        const [first, second] = this.giftReceivers();
        return `Give a card to ${table.nameOf(first)}, then one to ${table.nameOf(second)}`;
      }
      case "bet":
        return mine ? "Name your final bet" : `${who} is naming the final bet`;
      case "over":
        return view.winner === null || view.winner === undefined ? "The game is over"
          : `${table.nameOf(view.winner)} won with ${score(view.scores[view.winner])}. A new game starts shortly.`;
      default:
        return super.phaseStatus(view, mine, who);
    }
  }

  /** The two opponents who receive the contractor's gifts, in order. */
  giftReceivers() {
    const view = this.table.view;
    const order = view.active;
    const at = order.indexOf(view.contract ? view.contract.contractor : this.table.mySeat);
    return [order[(at + 1) % order.length], order[(at + 2) % order.length]];
  }

  /** Everybody's score (the barrel marked), the bid or bet, the trumps, the points taken. */
  contractHTML(view) {
    const table = this.table;
    const scores = `<span class="ct-scores ct-k-scores" title="Scores">${view.scores.map((s, seat) =>
      `<span class="ct-k-score team-${seat}${view.barrel[seat] && view.barrel[seat].on ? " on-barrel" : ""}" data-seat="${seat}" title="${esc(table.nameOf(seat))}${view.barrel[seat] && view.barrel[seat].on ? ": on the barrel" : ""}">${esc(this.shortName(seat))} <b>${score(s)}</b></span>`).join("")}</span>`;
    const trump = view.trump
      ? `<span class="ct-k-trump" data-testid="trump" title="Trumps: ${SUITS[view.trump].name}">trumps ${suitHTML(view.trump)}</span>`
      : `<span class="ct-k-trump" data-testid="trump">no trumps</span>`;
    const contract = view.contract;
    if (!contract) {
      const high = view.high_bid;
      return `${scores}<span>Deal ${view.hand_number}${high ? ` · high bid <b>${high.bid}</b>${high.blind ? " blind" : ""} ${esc(table.nameOf(high.seat))}` : ""}</span>`;
    }
    const taken = view.card_points[contract.contractor] + view.marriage_points[contract.contractor];
    return `${scores}`
      + `<span class="ct-contract-bid" data-testid="k-contract">${contract.bet === contract.bid ? "Bid" : "Bet"} <b>${contract.bet}</b>${contract.blind ? ' <span class="ct-blind" title="Blind: all points doubled">blind ×2</span>' : ""} <span class="ct-by">${esc(table.nameOf(contract.contractor))}</span></span>`
      + (view.phase === "play" ? `${trump}<span class="ct-count" data-testid="trick-count" title="Points taken by the contractor (cards and marriages), and the bet to reach">${taken} taken of ${contract.bet}</span>` : "");
  }

  /** A seat's name, shortened for the score line. */
  shortName(seat) {
    const name = this.table.nameOf(seat);
    return name.length > 10 ? `${name.slice(0, 9)}…` : name;
  }

  // -- the hand --------------------------------------------------------------------------------

  /** Whether I am picking cards to discard or give now. */
  isPicking() {
    const table = this.table;
    return table.isMyTurn() && (table.view.phase === "discard" || table.view.phase === "give");
  }

  /** How many cards to pick: 3 to discard, 2 to give. */
  pickCount() {
    return this.table.view.phase === "give" ? 2 : 3;
  }

  /** Every card while I pick; else a card I may play (declaring its marriage or not). */
  isPlayable(card) {
    return this.isPicking() || super.isPlayable(card);
  }

  /** Cards in my hand, less those picked (they show in the pick panel). */
  handCards(cards) {
    if (!this.isPicking() || !this.picked.length) return cards;
    const picked = new Set(this.picked);
    return cards.filter((card) => !picked.has(card));
  }

  /** My hand again (the shared table draws it), with the marriages marked. */
  renderHand() {
    this.table.renderHand();
    this.markMarriages();
  }

  /** A king or queen that may lead its marriage is marked, and says so. */
  markMarriages() {
    const marriages = new Set(this.legal().filter((a) => a.endsWith(" marriage")).map((a) => a.split(" ")[1]));
    for (const button of this.table.el.hand.querySelectorAll("[data-card]")) {
      const card = button.dataset.card;
      button.classList.toggle("marriage", marriages.has(card));
      if (marriages.has(card)) button.title = `${cardName(card)}: lead it to declare its marriage`;
      else button.removeAttribute("title");
    }
  }

  /** A pick while I discard or give, the marriage question, or a card played. */
  onCardClick(card) {
    if (this.isPicking()) {
      this.togglePick(card);
    } else if (this.legal().includes(`play ${card} marriage`)) {
      this.openMarriage(card);
    } else {
      this.table.act(`play ${card}`);
    }
  }

  /** Pick a card, or put a picked one back. */
  togglePick(card) {
    if (this.picked.includes(card)) this.picked = this.picked.filter((c) => c !== card);
    else if (this.picked.length < this.pickCount()) this.picked = [...this.picked, card];
    else return;
    this.renderHand();
    this.renderPick();
  }

  /** The panel of picked cards with its Discard / Give button. */
  renderPick() {
    const { el, table } = this;
    const show = Boolean(table.view) && this.isPicking();
    el.kPick.hidden = !show;
    if (!show) return;
    const count = this.pickCount();
    const give = table.view.phase === "give";
    if (give) {
      const receivers = this.giftReceivers();
      el.kPickTitle.textContent = `Pick a card for ${table.nameOf(receivers[0])}, then one for ${table.nameOf(receivers[1])}`;
    } else {
      el.kPickTitle.textContent = `Pick ${count} cards to discard face down`;
    }
    el.kPicked.innerHTML = Array.from({ length: count }, (_, index) => {
      const card = this.picked[index];
      const label = give ? `<span class="ct-k-to">to ${esc(table.nameOf(this.giftReceivers()[index]))}</span>` : "";
      return card
        ? `<button type="button" class="ct-card ct-k-slot" data-card="${esc(card)}" aria-label="${esc(cardName(card))}: put it back">${cardSVG(card)}${label}</button>`
        : `<span class="ct-k-slot ct-k-empty">${label}</span>`;
    }).join("");
    el.discard.disabled = this.picked.length !== count;
    el.discard.textContent = give ? "Give" : `Discard ${this.picked.length}/${count}`;
  }

  // -- the bank --------------------------------------------------------------------------------

  /**
   * The bank in the middle while it is bid for (backs until shown). Once taken its cards are
   * in the contractor's hand, so they leave the middle; a bank shown to all stays named by
   * the contractor's seat ("took A♥ 10♠ 9♦") for as long as it matters.
   */
  renderBank() {
    const { view, options } = this.table;
    const bank = this.el.bank;
    const bidding = Boolean(view && view.phase === "bidding" && view.bank_size);
    const key = bidding ? `backs:${view.bank_size}:${options.cardBack}` : "";
    if (bank.dataset.key !== key) {
      bank.dataset.key = key;
      bank.hidden = !bidding;
      bank.innerHTML = bidding ? `<div class="ct-k-bank-label">Bank</div><div class="ct-k-bank-cards">${
        Array.from({ length: view.bank_size }, () => `<span class="ct-mini ct-back">${backSVG(options.cardBack)}</span>`).join("")}</div>` : "";
    }
    this.renderBankTaken();
  }

  /** By the contractor's name, what the bank held (if I may know) while the bank matters. */
  renderBankTaken() {
    const table = this.table;
    const view = table.view;
    for (const plate of table.root.querySelectorAll(".ct-k-took")) plate.remove();
    if (!view || !view.contract || !["discard", "give", "bet"].includes(view.phase)) return;
    const contractor = view.contract.contractor;
    const note = document.createElement("span");
    note.className = "ct-k-took";
    note.dataset.testid = "bank-taken";
    const seen = view.bank && contractor !== table.mySeat;
    note.innerHTML = seen ? `took ${view.bank.map(cardText).join(" ")}` : "took the bank";
    note.title = seen ? `The bank ${table.nameOf(contractor)} took: ${view.bank.map(cardName).join(", ")}` : "";
    table.seatElement(contractor).querySelector(".ct-plate").append(note);
  }

  // -- bidding and the final bet ---------------------------------------------------------------

  /** The bids or bets I may make now, lowest first: [{value, action, blind}]. */
  stepValues() {
    const values = [];
    for (const action of this.legal()) {
      const match = POINTS_ACTION.exec(action);
      if (match) values.push({ value: Number(match[2]), action, blind: Boolean(match[3]), kind: match[1] });
    }
    return values.sort((a, b) => a.value - b.value);
  }

  /** Move the stepper by one legal value. */
  step(delta) {
    const values = this.stepValues();
    if (!values.length) return;
    this.stepIndex = Math.min(values.length - 1, Math.max(0, this.stepIndex + delta));
    this.renderBidding();
  }

  /** The bidding or final bet panel, on my turn. */
  renderBidding() {
    const { el, table } = this;
    const view = table.view;
    const phase = view && view.phase;
    const show = table.isMyTurn() && (phase === "bidding" || phase === "bet");
    el.kBidding.hidden = !show;
    if (!show) {
      this.stepKey = "";
      return;
    }
    const values = this.stepValues();
    const key = `${this.pickKey}:${values.map((v) => v.action).join(",")}`;
    if (key !== this.stepKey) {
      this.stepKey = key;
      this.stepIndex = 0;
    }
    const chosen = values[this.stepIndex];
    const legal = this.legal();
    const blind = values.length > 0 && values[0].blind;
    const range = view.bid_range;
    el.kTitle.textContent = phase === "bet" ? "Your final bet"
      : blind ? "Bid blind (points doubled), or look first" : "Your bid";
    el.kRange.textContent = values.length
      ? `${phase === "bet" ? "Bets" : "Bids"} ${values[0].value}–${values.at(-1).value} in steps of ${range.step}`
        + (range.cap_without_marriage !== null && range.cap_without_marriage !== undefined
          ? ` · over ${range.cap_without_marriage} only with a marriage` : "")
      : "No bid is open to you: pass";
    el.kValue.textContent = chosen ? String(chosen.value) : "–";
    el.kDown.disabled = !chosen || this.stepIndex === 0;
    el.kUp.disabled = !chosen || this.stepIndex >= values.length - 1;
    el.kQuick.innerHTML = values.slice(0, 4).map((v) =>
      `<button type="button" class="ct-button ct-k-chip${v === chosen ? " selected" : ""}" data-value="${v.value}" data-action="${esc(v.action)}" aria-pressed="${v === chosen}">${v.value}</button>`).join("");
    el.kLook.hidden = !legal.includes("look");
    // Before I look, looking is the suggested move; a blind bid is the other button, asked twice.
    el.kLook.classList.toggle("ct-primary", !el.kLook.hidden);
    el.bidSubmit.classList.toggle("ct-primary", el.kLook.hidden);
    const asking = Boolean(chosen) && chosen.blind && this.blindAsked === chosen.action;
    el.bidSubmit.classList.toggle("ct-k-asking", asking);
    el.pass.hidden = phase === "bet";
    el.pass.disabled = !legal.includes("pass");
    el.pass.title = legal.includes("pass") ? "Pass: out of the bidding for this deal" : "The first bidder must bid";
    el.bidSubmit.disabled = !chosen;
    el.bidSubmit.dataset.action = chosen ? chosen.action : "";
    el.bidSubmit.innerHTML = !chosen ? "Bid"
      : `${asking ? "Sure? " : ""}${phase === "bet" ? "Bet" : "Bid"} ${chosen.value}${chosen.blind ? ' <span class="ct-blind">blind ×2</span>' : ""}`;
    el.bidSubmit.title = asking ? "Click again to bid without looking: every point of the deal counts double" : "";
  }

  // -- marriages -------------------------------------------------------------------------------

  /** Leading a marriage's king or queen asks whether to declare it. */
  openMarriage(card) {
    const points = { S: 40, C: 60, D: 80, H: 100 }[card.slice(-1)];
    this.marriageChoice = { card, points };
    const { el } = this;
    el.kMarriageTitle.innerHTML = `Lead ${esc(cardName(card))}: declare the ${suitHTML(card.slice(-1))} marriage?`;
    el.kDeclare.innerHTML = `Declare marriage (+${points})`;
    el.kMarriage.hidden = false;
    el.kDeclare.focus();
  }

  /** Close the marriage question without playing. */
  closeMarriage() {
    this.marriageChoice = null;
    this.el.kMarriage.hidden = true;
  }

  /** Lead the card, declaring its marriage or not. */
  playMarriage(declare) {
    const choice = this.marriageChoice;
    if (!choice) return;
    this.closeMarriage();
    this.table.act(`play ${choice.card}${declare ? " marriage" : ""}`);
  }

  // -- the end of a deal -----------------------------------------------------------------------

  /** Who made or went down on what, everybody's points and penalties, the scores, the winner. */
  resultHTML(scored, over) {
    const table = this.table;
    const parts = [];
    if (scored) {
      const contractor = scored.contractor;
      if (contractor === null || contractor === undefined) {
        parts.push(`<div class="ct-result-title">${esc(scored.summary)}</div>`);
      } else {
        const verdict = scored.made ? "made" : "went down on";
        parts.push(`<div class="ct-result-title">${esc(this.whoIsCapital(contractor))} ${verdict} ${scored.bet}${scored.blind ? " blind" : ""}: took ${scored.taken}, ${signed(scored.points[contractor])}</div>`);
      }
      parts.push(`<div class="ct-result-points">${scored.points.map((points, seat) =>
        table.view.active.includes(seat) || points
          ? `<span>${esc(table.nameOf(seat))} <b>${signed(points)}</b></span>` : "").join("")}</div>`);
      for (const penalty of scored.penalties || []) {
        const why = penalty.kind === "barrel" ? "off the barrel" : "three bolts";
        parts.push(`<div class="ct-result-summary">${esc(table.nameOf(penalty.seat))}: ${why}, ${signed(penalty.points)}</div>`);
      }
      parts.push(`<div class="ct-result-score">Score: ${scored.scores.map((s, seat) =>
        `<span>${esc(table.nameOf(seat))} <b>${score(s)}</b></span>`).join(" · ")}</div>`);
    }
    if (over && over.winner !== null && over.winner !== undefined) {
      parts.push(`<div class="ct-result-match">${esc(this.whoIsCapital(over.winner))} won the game with ${score(over.scores[over.winner])}! A new game starts in a moment.</div>`);
    }
    return parts.join("");
  }
}

/** The 1000 table: the shared table built with 1000's widgets (table_games.js names it). */
export class ThousandTableView extends TableView {
  constructor(root, ctx) {
    super(root, ctx, ThousandWidgets);
  }
}

/** A card as short HTML: "A♥" with the suit in its colour. */
function cardText(card) {
  return `${esc(card.slice(0, -1))}${suitHTML(card.slice(-1))}`;
}
