/**
 * Claims in the play of 500 (five_hundred.js puts them on the table): a player says how many
 * of the tricks left their side takes, and shows their hand.
 *
 * - The Claim button, in the felt's corner beside my seat, while my view lists `claims` (the
 *   counts I may claim now). It opens the chooser: every count from all the tricks left down
 *   to none ("None: concede"), all of them at first; a no-tricks contract's player has only
 *   "No more tricks". Claim sends `claim N`; Cancel sends nothing.
 * - While a claim waits for the opponents (`view.claim`, phase `claim`), the banner: who claims
 *   what, the consent the table needs, who has accepted and who answers; Accept and Refuse for
 *   the seat to answer.
 * - The claim's news in words ("Ann claims all 7 tricks left: the solver proves it", "Ben
 *   refuses the claim: play goes on"), for the table's news and the replay's step line.
 *
 * The room proves a claim with its solver: a proven claim ends the hand at once, any other goes
 * to the opponents. Like the rest of the client, nothing here decides legality.
 *
 * @module five_hundred_claims
 */

import { esc } from "./markup.js";
import { TRICK_BID, append } from "./five_hundred_panels.js";

/** "1 trick", "7 tricks". */
function tricks(count) {
  return `${count} trick${count === 1 ? "" : "s"}`;
}

/**
 * A claim in words, after the claimant's name: "claims all 7 tricks left", "claims 5 of the
 * 7 tricks left", "concedes the 7 tricks left", "claims no more tricks" (a no-tricks contract).
 * @param {{tricks: number, remaining: number}} claim
 * @param {boolean} misere the claimant plays a no-tricks contract
 * @param {boolean} you the claimant is the reader ("claim", "concede")
 */
export function claimPhrase(claim, misere, you = false) {
  const s = you ? "" : "s";
  if (misere) return `claim${s} no more tricks`;
  const left = claim.remaining === 1 ? "the last trick" : `the ${claim.remaining} tricks left`;
  if (claim.tricks === 0) return `concede${s} ${left}`;
  if (claim.tricks === claim.remaining) {
    return claim.remaining === 1 ? `claim${s} the last trick` : `claim${s} all ${claim.remaining} tricks left`;
  }
  return `claim${s} ${claim.tricks} of ${left}`;
}

/** A count's label in the chooser: "All 7", "6 of 7", "None: concede". */
function countLabel(count, remaining) {
  if (count === remaining) return remaining === 1 ? "The last trick" : `All ${remaining}`;
  if (count === 0) return "None: concede";
  return `${count} of ${remaining}`;
}

export class ClaimControl {
  /** @param {import("./table.js").TableView} table */
  constructor(table) {
    this.table = table;
    /** The count chosen in the open chooser (null: closed). */
    this.choice = null;
    this.countsKey = "";
    this.button = append(table.el.felt, `<button type="button" class="ct-button ct-claim-open" data-testid="claim" aria-haspopup="dialog" title="Claim tricks: show your hand and say how many of the tricks left your side takes" hidden>Claim…</button>`);
    this.chooser = append(table.el.overlay, `<div class="ct-panel ct-claim" data-testid="claim-chooser" role="dialog" aria-labelledby="ct-claim-title" aria-describedby="ct-claim-help" hidden>
          <div class="ct-panel-title" id="ct-claim-title">Claim tricks</div>
          <div class="ct-claim-counts" data-testid="claim-counts" role="group" aria-label="Tricks your side takes"></div>
          <p class="ct-claim-help" id="ct-claim-help">Your hand is shown to all. If the solver proves the claim, the hand ends at once; if not, the opponents accept it or play on.</p>
          <div class="ct-panel-actions">
            <button type="button" class="ct-button" data-testid="claim-cancel">Cancel</button>
            <button type="button" class="ct-button ct-primary" data-testid="claim-confirm">Claim</button>
          </div>
        </div>`);
    this.banner = append(table.el.overlay, `<div class="ct-panel ct-claim-wait" data-testid="claim-banner" role="status" aria-live="polite" hidden>
          <div class="ct-panel-title" data-testid="claim-banner-title"></div>
          <div class="ct-claim-consent" data-testid="claim-consent"></div>
          <div class="ct-claim-answers" data-testid="claim-answers"></div>
          <div class="ct-panel-actions" data-testid="claim-answer" hidden>
            <button type="button" class="ct-button" data-testid="claim-refuse" data-action="refuse">Refuse: play on</button>
            <button type="button" class="ct-button ct-primary" data-testid="claim-accept" data-action="accept">Accept</button>
          </div>
        </div>`);
    const q = (panel, selector) => panel.querySelector(selector);
    this.counts = q(this.chooser, "[data-testid=claim-counts]");
    this.confirm = q(this.chooser, "[data-testid=claim-confirm]");
    this.title = q(this.banner, "[data-testid=claim-banner-title]");
    this.consent = q(this.banner, "[data-testid=claim-consent]");
    this.answers = q(this.banner, "[data-testid=claim-answers]");
    this.answer = q(this.banner, "[data-testid=claim-answer]");
    this.button.addEventListener("click", () => (this.choice === null ? this.open() : this.close()));
    this.counts.addEventListener("click", (event) => {
      const button = event.target.closest("[data-tricks]");
      if (!button || this.choice === null) return;
      this.choice = Number(button.dataset.tricks);
      this.renderChooser();
    });
    this.confirm.addEventListener("click", () => {
      const choice = this.choice;
      if (choice === null) return;
      this.close();
      table.act(`claim ${choice}`);
    });
    q(this.chooser, "[data-testid=claim-cancel]").addEventListener("click", () => this.close(true));
    this.chooser.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.close(true);
      }
    });
    q(this.banner, "[data-testid=claim-accept]").addEventListener("click", () => table.act("accept"));
    q(this.banner, "[data-testid=claim-refuse]").addEventListener("click", () => table.act("refuse"));
  }

  /** The counts I may claim now (none unless it is my turn). */
  options() {
    const table = this.table;
    const view = table.view;
    return view && table.isMyTurn() && Array.isArray(view.claims) ? view.claims : [];
  }

  /** Whether a seat claims as the player of a no-tricks contract (its only claim: none). */
  isMisere(seat) {
    const view = this.table.view;
    const contract = view && view.contract;
    return Boolean(contract && contract.bid && !TRICK_BID.test(contract.bid)
      && (view.contract_side || []).includes(seat));
  }

  /** The chooser closes when claiming is no longer open to me. */
  sync() {
    if (this.choice !== null && !this.options().includes(this.choice)) this.close();
  }

  /** Open the chooser on the most tricks I may claim (all that are left). */
  open() {
    const counts = this.options();
    if (!counts.length) return;
    this.choice = Math.max(...counts);
    this.renderChooser();
    const chosen = this.counts.querySelector("[aria-pressed=true]");
    if (chosen) chosen.focus();
  }

  /** Close the chooser without claiming (`refocus`: back on the Claim button). */
  close(refocus = false) {
    this.choice = null;
    this.chooser.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    if (refocus && !this.button.hidden) this.button.focus();
  }

  reset() {
    this.close();
  }

  /** The Claim button while I may claim, the chooser while open, the banner while a claim waits. */
  render() {
    const counts = this.options();
    this.button.hidden = !counts.length;
    if (!counts.length && this.choice !== null) this.close();
    this.renderChooser();
    this.renderBanner();
  }

  /** The chooser: a button per count, highest first; Claim names the count chosen. */
  renderChooser() {
    const open = this.choice !== null;
    this.chooser.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
    if (!open) return;
    const counts = [...this.options()].sort((a, b) => b - a);
    const misere = counts.length === 1 && counts[0] === 0; // a no-tricks contract's only claim
    const remaining = Math.max(...counts);
    const key = `${misere}:${counts.join(",")}`;
    if (key !== this.countsKey) {
      this.countsKey = key;
      this.counts.innerHTML = counts.map((count) => `<button type="button" class="ct-button ct-claim-count${count === 0 ? " ct-claim-none" : ""}" data-testid="claim-count" data-tricks="${count}" aria-pressed="false">${esc(misere ? "No more tricks" : countLabel(count, remaining))}</button>`).join("");
    }
    for (const button of this.counts.querySelectorAll("[data-tricks]")) {
      const chosen = Number(button.dataset.tricks) === this.choice;
      button.classList.toggle("selected", chosen);
      button.setAttribute("aria-pressed", String(chosen));
    }
    const claim = { tricks: this.choice, remaining };
    const words = claimPhrase(claim, misere, true);
    this.confirm.textContent = words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** The opponents who answer a claim, clockwise from the claimant. */
  answerers(claimant) {
    const table = this.table;
    const side = table.teamOf(claimant);
    const count = table.seatCount();
    const order = Array.from({ length: count - 1 }, (_, step) => (claimant + step + 1) % count);
    return order.filter((seat) => table.teamOf(seat) !== side && !this.table.game.isSittingOut(seat));
  }

  /** The claim waiting for answers: what is claimed, the consent needed, the answers so far. */
  renderBanner() {
    const table = this.table;
    const view = table.view;
    const claim = view && view.phase === "claim" ? view.claim : null;
    this.banner.hidden = !claim;
    if (!claim) return;
    const you = claim.seat === table.mySeat && !table.replaying;
    const who = you ? "You" : table.nameOf(claim.seat);
    this.title.textContent = `${who} ${claimPhrase(claim, this.isMisere(claim.seat), you)}`;
    this.consent.textContent = claim.consent === "one"
      ? "One opponent's acceptance is enough." : "Both opponents must accept.";
    const accepted = new Set(claim.accepted || []);
    this.answers.textContent = this.answerers(claim.seat).map((seat) => {
      const name = table.whoIs(seat);
      if (accepted.has(seat)) return `${name.charAt(0).toUpperCase()}${name.slice(1)} accepted`;
      if (seat === view.to_act) return seat === table.mySeat ? "Your answer" : `Waiting for ${name}`;
      return `then ${name}`;
    }).join(" · ");
    this.answer.hidden = !table.isMyTurn();
  }

  /**
   * A message's claim events in words, "" when it has none: "Ann claims all 7 tricks left:
   * the solver proves it", "Ben refuses the claim: play goes on", "Cat accepts the claim:
   * Ann's side takes 5, concedes 2".
   * @param {object[]} events
   */
  news(events) {
    const table = this.table;
    const name = (seat) => (seat === table.mySeat && !table.replaying ? "You" : table.nameOf(seat));
    const you = (seat) => seat === table.mySeat && !table.replaying;
    const said = [];
    for (const event of events) {
      if (event.type === "claim") {
        const what = `${name(event.seat)} ${claimPhrase(event, this.isMisere(event.seat), you(event.seat))}`;
        said.push(event.proven ? (event.tricks === 0 && !this.isMisere(event.seat) ? what : `${what}: the solver proves it`)
          : `${what}: the opponents answer`);
      } else if (event.type === "claim_answer") {
        const refused = !event.accepted && events.some((e) => e.type === "claim_refused");
        const settled = event.accepted && events.find((e) => e.type === "claim_settled");
        const outcome = refused ? ": play goes on" : settled ? `: ${this.settledText(settled)}` : "";
        said.push(`${name(event.seat)} ${event.accepted ? "accept" : "refuse"}${you(event.seat) ? "" : "s"} the claim${outcome}`);
      }
    }
    return said.join(". ");
  }

  /** A claim that stands, in words: "Ann's side takes 5, concedes 2". */
  settledText(settled) {
    const table = this.table;
    const side = settled.seat === table.mySeat && !table.replaying ? "your side" : `${table.nameOf(settled.seat)}'s side`;
    return `${side} takes ${settled.tricks}, concedes ${settled.conceded}`;
  }

  /**
   * The end of a hand's line when it ended on a claim (`claim_settled` among its events), else
   * "": "The hand ended on a claim: Ann's side took 5 of the 7 tricks left and conceded 2."
   * @param {object[]} events
   */
  endingHTML(events) {
    const settled = events.find((e) => e.type === "claim_settled");
    if (!settled) return "";
    const table = this.table;
    const proven = events.some((e) => e.type === "claim" && e.proven);
    const side = settled.seat === table.mySeat && !table.replaying ? "your side" : `${table.nameOf(settled.seat)}'s side`;
    const left = settled.tricks + settled.conceded;
    const how = proven ? "a claim the solver proved" : "an accepted claim";
    const what = settled.conceded === 0 ? (left === 1 ? "took the last trick" : `took all ${tricks(left)} left`)
      : settled.tricks === 0 ? `conceded the ${tricks(left)} left`
        : `took ${settled.tricks} of the ${tricks(left)} left and conceded ${settled.conceded}`;
    return `<div class="ct-result-claim" data-testid="result-claim">The hand ended on ${how}: ${esc(side)} ${what}.</div>`;
  }
}
