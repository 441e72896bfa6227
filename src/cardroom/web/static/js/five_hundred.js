/**
 * The table for 500: the shared {@link TableView} with 500's widgets. The panels themselves
 * (the bid grid, the kitty exchange, the joker's pickers, the partner call) are in
 * five_hundred_panels.js; here they are put together, and 500 says what it does differently:
 *
 * - the phases' wording (the kitty, a partner's discards, the partner call, the joker's suit,
 *   slam, a ralphed seat that may only pass);
 * - bids as "7♥" on the nameplates; partners called by a card get a badge once known (five
 *   players), and a folded partner's seat sits out;
 * - the contract line: the bid, the trumps, tricks won by the contract's side against those
 *   needed, the called cards, slam and the joker's named suit;
 * - a click on a card: a kitty swap, a card given to partner, the joker led in no trumps
 *   (which asks for a suit), or a card played;
 * - claims in the play (five_hundred_claims.js): the Claim button and its chooser, the banner
 *   of a claim waiting for the opponents, the claim's news, and a hand ended on a claim;
 * - the verdict: "Alice and Bob made it through: 7♥, +200".
 *
 * Like the rest of the client it decides no legality: every button is a legal action's text.
 *
 * @module five_hundred
 */

import { SUITS } from "./cards.js";
import { GameWidgets } from "./game_widgets.js";
import { esc, signed, suitHTML } from "./markup.js";
import { TableView } from "./table.js";
import {
  BidGrid, JokerLead, JokerNominate, KittyExchange, PartnerCall, TRICK_BID, bidHTML, cardHTML,
} from "./five_hundred_panels.js";
import { ClaimControl } from "./five_hundred_claims.js";

/** Team colour classes a partner's badge may carry. */
const TEAM_CLASSES = [0, 1, 2, 3, 4, 5].map((team) => `team-${team}`);

export class FiveHundredWidgets extends GameWidgets {
  name = "500";

  /** @param {TableView} table */
  constructor(table) {
    super(table);
    this.kitty = new KittyExchange(table);
    this.bids = new BidGrid(table);
    this.joker = new JokerLead(table);
    this.call = new PartnerCall(table);
    this.nominate = new JokerNominate(table);
    this.claims = new ClaimControl(table);
  }

  sync() {
    this.kitty.sync();
    this.joker.sync();
    this.claims.sync();
  }

  render(events) {
    this.bids.render();
    this.kitty.render();
    this.call.render();
    this.nominate.render();
    this.claims.render();
    this.renderPartners();
    // While a claim waits its banner says it all, and the result tells a hand ended on a claim:
    // news would cover them (on a phone, the banner's buttons).
    const told = (events || []).some((e) => e.type === "hand_scored") || this.table.view?.phase === "claim";
    const news = told ? "" : this.newsText(events || []);
    if (news && !this.table.replaying) this.table.whenTrickIdle(() => this.table.showNotice(`${news}.`, "info"));
  }

  reset() {
    this.kitty.reset();
    this.bids.reset();
    this.joker.close();
    this.claims.reset();
  }

  /** Claims, answers and claims settled, in words. */
  newsText(events) {
    return this.claims.news(events);
  }

  destroy() {
    this.bids.destroy();
  }

  // -- seats -----------------------------------------------------------------------------------

  /** A partner folded by the contract (Nello, slam, Hi/Lo …) sits out. */
  isSittingOut(seat) {
    const view = this.table.view;
    return Boolean(view && view.contract && view.contract.playing && !view.contract.playing.includes(seat));
  }

  seatBidHTML(entry) {
    return bidHTML(entry.bid, this.table.view.ladder);
  }

  /** A badge on the partners known to play for the contract (five players). */
  renderPartners() {
    const table = this.table;
    const view = table.view;
    const partners = new Set((view && view.players === 5 && view.partners) || []);
    for (let seat = 0; seat < table.seatCount(); seat++) {
      const plate = table.seatElement(seat).querySelector(".ct-plate");
      let badge = plate.querySelector(".ct-side-badge");
      if (partners.has(seat)) {
        if (!badge) {
          badge = document.createElement("span");
          badge.className = "ct-side-badge";
          badge.dataset.testid = "partner-badge";
          badge.textContent = "partner";
          plate.append(badge);
        }
        badge.classList.remove(...TEAM_CLASSES);
        badge.classList.add(`team-${table.teamOf(view.contract.contractor)}`);
      } else if (badge) {
        badge.remove();
      }
    }
  }

  // -- the bar ---------------------------------------------------------------------------------

  phaseStatus(view, mine, who) {
    switch (view.phase) {
      case "call": {
        const wanted = this.call.wanted();
        if (!mine) return `${who} is calling ${wanted === 2 ? "partners" : "a partner"}`;
        return wanted - view.called.length === 2 ? "Call two partners: name two cards you do not hold"
          : `Call ${wanted === 2 ? "your second" : "a"} partner: name a card you do not hold`;
      }
      case "joker":
        return mine ? "Name a suit for the joker, or keep it the only trump" : `${who} is deciding about the joker`;
      case "claim": {
        const claimant = view.claim ? view.claim.seat : null;
        if (mine) return `Accept or refuse ${this.table.nameOf(claimant)}'s claim`;
        if (claimant === this.table.mySeat && !this.table.replaying) return `Your claim: waiting for ${who} to answer`;
        return `Waiting for ${who} to answer ${this.table.nameOf(claimant)}'s claim`;
      }
      case "give":
        if (view.contract && view.contract.slam) {
          return mine ? "Slam! Pass one card to your partner" : `${who} is passing a card for the slam`;
        }
        return mine ? "Give one card to your partner" : `${who} is giving a card to their partner`;
      case "discard":
        return mine ? `Exchange with the kitty: put back ${view.discard_count} cards`
          : `${who} is exchanging with the kitty`;
      case "partner_discard":
        return mine ? `Choose from your partner's discards: put back ${view.discard_count} cards`
          : `${who} is exchanging with the kitty (their partner's discards)`;
      case "bidding":
        if (mine && view.barred === this.table.mySeat) {
          return "You were set by three tricks or more: you may only pass this hand";
        }
        return super.phaseStatus(view, mine, who);
      default:
        return super.phaseStatus(view, mine, who);
    }
  }

  /** The scores, the contract and the tricks, then the called cards, slam and the joker. */
  contractHTML(view) {
    return this.contractLine(view) + (view.contract ? this.contractExtras(view) : "");
  }

  /** Contract, contractor, trumps, tricks won per side against needed. */
  contractLine(view) {
    const table = this.table;
    const scores = this.scoresHTML(view);
    const contract = view.contract;
    if (!contract) {
      const high = view.high_bid;
      return `${scores}<span>Hand ${view.hand_number}${high ? ` · high bid ${bidHTML(high.bid, view.ladder)} ${esc(table.nameOf(high.seat))}` : ""}</span>`;
    }
    if (!contract.bid) {
      return `${scores}<span>No trumps (nobody bid)</span>`;
    }
    const side = table.teamOf(contract.contractor);
    // The makers: the contractor's known side (five players: with the partners revealed so
    // far), against everybody else.
    const makers = view.contract_side && view.contract_side.length ? view.contract_side : table.teams()[side];
    const tricksOf = (seats) => seats.reduce((sum, seat) => sum + (view.tricks_won[seat] || 0), 0);
    const others = view.tricks_won.map((_, seat) => seat).filter((seat) => !makers.includes(seat));
    const otherClass = table.teams().length === 2 ? `team-${1 - side}` : "";
    const match = TRICK_BID.exec(contract.bid);
    const needed = match ? Number(match[1]) : 0;
    const trump = contract.trump ? suitHTML(contract.trump, ` title="Trumps: ${SUITS[contract.trump].name}"`) : "";
    return `${scores}`
      + `<span class="ct-contract-bid team-${side}">${bidHTML(contract.bid, view.ladder)} <span class="ct-by">${esc(table.nameOf(contract.contractor))}</span>${trump ? ` trumps ${trump}` : ""}</span>`
      + this.trickCountHTML(match ? needed : null, tricksOf(makers), tricksOf(others), side, otherClass);
  }

  /**
   * The tricks in words: "7 to make · 3 won · 0 against" (a contract without a number of
   * tricks, such as misère, leaves the first out), explained in full on hover.
   */
  trickCountHTML(needed, won, against, side, otherClass) {
    const plural = (n) => `${n} trick${n === 1 ? "" : "s"}`;
    const title = `${needed === null ? "" : `The contract needs ${plural(needed)}. `}`
      + `Its side has won ${plural(won)}, the others ${plural(against)}.`;
    return `<span class="ct-count" data-testid="trick-count" title="${esc(title)}">`
      + `<span class="team-${side}">${needed === null ? "" : `${needed} to make · `}${won} won</span>`
      + `<span class="ct-sep">·</span><span class="${otherClass}">${against} against</span></span>`;
  }

  /** The called cards and the partners known so far, slam, the joker's named suit. */
  contractExtras(view) {
    const extra = [];
    if (view.called && view.called.length) {
      const partners = (view.partners || []).map((seat) => esc(this.table.whoIs(seat))).join(", ");
      extra.push(`<span class="ct-called" data-testid="called">Called ${view.called.map(cardHTML).join(" ")}`
        + `${partners ? ` · partner${view.partners.length === 1 ? "" : "s"}: ${partners}` : ""}</span>`);
    }
    if (view.contract.slam) extra.push(`<span class="ct-side-badge" data-testid="slam-called">Slam</span>`);
    const jokerSuit = view.contract.joker_suit;
    if (jokerSuit) extra.push(`<span data-testid="joker-suit-named">Joker: highest ${suitHTML(jokerSuit)}</span>`);
    return extra.join("");
  }

  // -- my hand ---------------------------------------------------------------------------------

  handCards(cards) {
    return this.kitty.handCards(cards);
  }

  /** Every card while I exchange with the kitty; else a card I may play or give. */
  isPlayable(card) {
    if (this.kitty.exchange) return true;
    return super.isPlayable(card) || this.table.legal().includes(`give ${card}`);
  }

  selectedCard() {
    return this.kitty.selected();
  }

  /** The bid the keyboard enters the grid on; the kitty's first card; else as any game. */
  turnFocus() {
    const view = this.table.view;
    if (view.phase === "bidding" && !this.bids.panel.hidden) return this.bids.current() || this.bids.pass;
    if (this.kitty.exchange) return this.kitty.kitty.querySelector("[data-card]");
    return super.turnFocus();
  }

  /** A kitty swap, a card given to partner, the joker led in no trumps, or a card played. */
  onCardClick(card, area) {
    const table = this.table;
    if (this.kitty.exchange) {
      this.kitty.swap(card, area);
    } else if (table.legal().includes(`give ${card}`) || table.view.phase === "give") {
      table.act(`give ${card}`);
    } else if (this.joker.canLead(card)) {
      this.joker.open(card);
    } else {
      table.act(`play ${card}`);
    }
  }

  // -- the end of a hand -----------------------------------------------------------------------

  /** A hand ended on a claim proven at once: the claimant's hand as it was shown. */
  endedView(view, events) {
    const claim = events.find((e) => e.type === "claim");
    const ended = { ...view, claim: null, claims: [] };
    if (claim && claim.seat !== this.table.mySeat && claim.hand) {
      ended.open_hands = { ...(view.open_hands || {}), [String(claim.seat)]: claim.hand };
    }
    return ended;
  }

  /** The shared result, and how a hand ended on a claim went. */
  resultHTML(scored, over, events = []) {
    const html = super.resultHTML(scored, over, events);
    const claim = scored ? this.claims.endingHTML(events) : "";
    if (!claim) return html;
    const end = html.indexOf("</div>") + "</div>".length; // after the verdict
    return html.slice(0, end) + claim + html.slice(end);
  }

  /** "Alice and Bob made it through: 7♥, +200" / "went back: −200" / the summary. */
  verdictHTML(scored) {
    const table = this.table;
    const ladder = (table.view && table.view.ladder) || [];
    if (!scored.contract || scored.contractor === null || scored.contractor === undefined) {
      return esc(scored.summary || "Nobody bid.");
    }
    const side = table.teamOf(scored.contractor);
    const points = scored.points[side];
    if (scored.made === null || scored.made === undefined) {
      return `${bidHTML(scored.contract, ladder)}: ${esc(scored.summary)}`;
    }
    const verdict = scored.made ? "made it through" : "went back";
    return `${esc(table.sideName(side))} ${verdict}: ${bidHTML(scored.contract, ladder)}, ${signed(points)}`;
  }
}

/** The 500 table: the shared table built with 500's widgets (table_games.js names it). */
export class FiveHundredTableView extends TableView {
  constructor(root, ctx) {
    super(root, ctx, FiveHundredWidgets);
  }
}
