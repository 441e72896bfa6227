/**
 * The solver's analysis of a hand in words, for the replay's analysis panel.
 *
 * The server says what its figures count (`analysis.unit`): 500's analyses count tricks (what
 * a side can still take; a par table per strain), 1000's count points (whether the bet is
 * made double dummy, and what the defenders score). Each unit has its sentences here; the
 * replay asks for them without knowing which game it shows.
 *
 * @module analysis_words
 */

import { el } from "./dom.js";
import { SUITS } from "./cards.js";

/** Card and bid texts with suit symbols: "7H" → "7♥", "JK" → "Joker". */
export function withSymbols(text) {
  return String(text).replace(/\b(10|1[1-3]|[2-9JQKA]|\d{1,2})([SHDC])\b/g,
    (_, rank, suit) => `${rank}${SUITS[suit].symbol}`).replace(/\bJK2?\b/g, "Joker");
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** 500: tricks a side can take. */
const TRICKS = {
  /** "Double dummy, Cleo & Bot 3 take 8 in 7♥; they took 9. In each strain: ♠ 3 · … NT 9." */
  summary(analysis, names) {
    const side = analysis.makers.map((seat) => names[seat]).join(" & ");
    const one = analysis.makers.length === 1;
    const contract = analysis.contract ? withSymbols(analysis.contract) : "no trumps (nobody bid)";
    const parts = [analysis.makeable !== null
      ? `Double dummy, ${side} ${one ? "takes" : "take"} ${analysis.makeable} in ${contract}; ${one ? "took" : "they took"} ${analysis.taken}.`
      : `This contract (${contract}) has no trick count the solver aims at.`];
    const par = Object.entries(analysis.par || {});
    if (par.length) {
      parts.push(`In each strain: ${par.map(([strain, tricks]) => `${strain === "NT" ? "NT" : SUITS[strain].symbol} ${tricks}`).join(" · ")}.`);
    }
    return parts.join(" ");
  },
  best: (verdict) => `their side can still take ${verdict.before}.`,
  cost: (verdict) => [`cost ${plural(verdict.lost, "trick")}`, `: ${verdict.before} to take before it, ${verdict.after} after.`],
  none: "No card of this hand cost a trick.",
  slips: "Cards that cost tricks",
};

/** Whether a 1000 outcome is made, in words. */
const fate = (made) => (made ? "the bet is made" : "the bet fails");

/** 1000: the bet's fate and the defenders' points. */
const POINTS = {
  /** "Double dummy, Ann makes the bet of 120 and the defenders score 40; she took 97." */
  summary(analysis, names) {
    const who = names[analysis.contractor];
    const bet = `the bet of ${analysis.contract}`;
    const result = analysis.made === null ? "" : ` At the table ${who} ${analysis.made ? "made it" : "went down"} with ${analysis.taken}.`;
    const unsolved = analysis.unsolved ? ` ${plural(analysis.unsolved, "card")} could not be solved within the solver's limit.` : "";
    if (analysis.makeable === null) {
      return `The solver could not finish this deal from its first card within its limit.${result}${unsolved}`;
    }
    return `Double dummy, ${who} ${analysis.makeable ? "makes" : "fails"} ${bet} and the defenders score ${analysis.defenders_makeable}.${result}${unsolved}`;
  },
  best: (verdict) => `${fate(verdict.made_before)}, the defenders score ${verdict.defenders_before}.`,
  cost(verdict) {
    if (verdict.made_before !== verdict.made_after) {
      return [verdict.made_after ? "let the bet be made" : "lost the bet",
        `: best play kept ${verdict.made_before ? "it made" : "it failing"}.`];
    }
    const change = verdict.defenders_after - verdict.defenders_before;
    return [`cost ${plural(Math.abs(change), "point")}`,
      `: the defenders score ${verdict.defenders_after} after it, ${verdict.defenders_before} with best play.`];
  },
  none: "No card of this deal cost anything.",
  slips: "Cards that cost points or the bet",
};

const UNITS = { tricks: TRICKS, points: POINTS };

/** The sentences of an analysis's unit (tricks when it names none). */
const wordsOf = (analysis) => UNITS[analysis.unit] || TRICKS;

/** The hand's double-dummy summary. */
export function parText(analysis, names) {
  return wordsOf(analysis).summary(analysis, names);
}

/** A card's verdict: kept its side's best, or what it cost, with the cards that would not. */
export function verdictLine(analysis, verdict, names) {
  const words = wordsOf(analysis);
  const who = names[verdict.seat];
  const played = withSymbols(verdict.played);
  if (verdict.lost <= 0) {
    return el("p", { class: "replay-verdict best", "data-testid": "replay-verdict",
      text: `${who}'s ${played} was best: ${words.best(verdict)}` });
  }
  const [headline, rest] = words.cost(verdict);
  const better = verdict.best.map(withSymbols).join(" or ");
  return el("p", { class: "replay-verdict slip", "data-testid": "replay-verdict" },
    el("strong", { text: `${who}'s ${played} ${headline}` }), `${rest} Better: ${better}.`);
}

/** The cards of the hand that cost something, between cards. */
export function slipsSummary(analysis, names) {
  const words = wordsOf(analysis);
  const slips = analysis.cards.filter((card) => card.lost > 0);
  if (!slips.length) return words.none;
  return `${words.slips}: ${slips.map((card) => `${names[card.seat]} ${withSymbols(card.played)} (trick ${card.trick})`).join(", ")}.`;
}
