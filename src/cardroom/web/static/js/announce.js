/**
 * The table told in words for a screen reader (table.js builds one per table): a polite live
 * region, `[data-testid=announcer]`, where each bid, the contract, each card played, each
 * trick's winner, each hand's score change and the game's own news are added as a sentence
 * ("West plays the jack of hearts", "North wins the trick").
 *
 * Its words are the game's own: bids and verdicts as the game's widgets draw them for the
 * nameplates and the end of a hand (`seatBidHTML`, `verdictHTML`), cards as cards.js names
 * them, and the game's news; `speakable` turns their markup into words once for every game
 * ("7♥" → "seven hearts", "−40" → "minus 40").
 *
 * @module announce
 */

import { SUITS, cardName } from "./cards.js";

/** The sentences kept in the region (older ones go; a screen reader has read them). */
const KEPT = 200;
/** Numbers read as words before a suit ("seven hearts"). */
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
  "nine", "ten"];
/** Suit symbols and the short strains of bids, in words. */
const SYMBOL_WORDS = Object.fromEntries(Object.values(SUITS).map((suit) => [suit.symbol, suit.name]));
const STRAIN_WORDS = { NT: "no trumps", J5: "J5 no trumps" };

/**
 * Markup of the table's drawing made into words: tags dropped, suit symbols, "NT", signs and
 * small numbers before a suit said in full.
 * @param {string} html
 */
export function speakable(html) {
  const box = document.createElement("div");
  box.innerHTML = html;
  let text = box.textContent || "";
  const strain = `[${Object.keys(SYMBOL_WORDS).join("")}]|NT|J5`;
  text = text.replace(new RegExp(`\\b(\\d{1,2}) ?(${strain})`, "gu"), (_, number, suit) =>
    `${NUMBER_WORDS[Number(number)] || number} ${SYMBOL_WORDS[suit] || STRAIN_WORDS[suit]}`);
  text = text.replace(new RegExp(`[${Object.keys(SYMBOL_WORDS).join("")}]`, "gu"), (s) => ` ${SYMBOL_WORDS[s]}`);
  text = text.replace(/(^|[\s(:,])\u2212(\d)/g, "$1minus $2").replace(/(^|[\s(:,])\+(\d)/g, "$1plus $2");
  return text.replace(/\s+/g, " ").trim();
}

/** A card in a sentence: "the jack of hearts", "the joker". */
function theCard(card) {
  const name = cardName(card);
  return `the ${/^\d/.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1)}`;
}

export class Announcer {
  /** @param {import("./table.js").TableView} table the table it speaks for */
  constructor(table) {
    this.table = table;
    const region = document.createElement("div");
    region.className = "visually-hidden";
    region.dataset.testid = "announcer";
    region.setAttribute("role", "log");
    region.setAttribute("aria-live", "polite");
    region.setAttribute("aria-label", "What happens at the table");
    table.el.table.append(region);
    this.region = region;
    /** The game's news said last (the notice showing it says it again). */
    this.lastNews = "";
  }

  /** Add a sentence. */
  say(text) {
    if (!text) return;
    const line = document.createElement("p");
    line.textContent = /[.!?]$/.test(text) ? text : `${text}.`;
    this.region.append(line);
    while (this.region.childElementCount > KEPT) this.region.firstElementChild.remove();
  }

  /**
   * Tell what a message's events say, in order. The game's own news (a claim and its
   * answers) is told where its first event is.
   */
  events(events) {
    let told = false;
    for (const event of events) {
      if (!told && !this.sentence(event) && event.type.startsWith("claim")) {
        told = true;
        this.news(this.table.game.newsText(events));
      }
      this.say(this.sentence(event));
    }
  }

  /** The game's news, once: the table also shows it as a notice, which says it here too. */
  news(text) {
    const sentence = text && (/[.!?]$/.test(text) ? text : `${text}.`);
    if (!sentence || sentence === this.lastNews) return;
    this.lastNews = sentence;
    this.say(sentence);
  }

  /** An event in words ("" for one not told here: presence, the table's own settings). */
  sentence(event) {
    const table = this.table;
    const game = table.game;
    const who = (seat) => table.nameOf(seat);
    switch (event.type) {
      case "deal": {
        const view = table.view;
        return view && view.dealer !== undefined && view.dealer !== null
          ? `New hand: ${who(view.dealer)} deals` : "New hand";
      }
      case "bid":
        return `${who(event.seat)} bids ${speakable(game.seatBidHTML(event))}`;
      case "pass":
        return `${who(event.seat)} passes`;
      case "contract":
        return event.bid ? `The contract: ${speakable(game.seatBidHTML(event))} by ${who(event.seat)}` : "";
      case "all_passed":
        return "Everybody passed";
      case "kitty_taken":
        return `${who(event.seat)} takes the kitty`;
      case "bank_taken":
        return `${who(event.seat)} takes the bank`;
      case "play":
        return `${who(event.seat)} plays ${theCard(event.card)}`;
      case "trick":
        return `${who(event.winner)} wins the trick`;
      case "hand_scored":
        return this.scored(event);
      case "match_over":
        return event.winner === null || event.winner === undefined ? "The match is over"
          : `${table.sideName(event.winner)} won the match`;
      default:
        return "";
    }
  }

  /** A hand's verdict, as the result says it, and the score after it. */
  scored(event) {
    const table = this.table;
    const verdict = speakable(table.game.verdictHTML(event));
    const scores = event.scores || [];
    const said = (points) => speakable(points < 0 ? `\u2212${-points}` : String(points));
    const score = scores.length === 2 ? `score ${said(scores[0])} to ${said(scores[1])}`
      : `scores: ${scores.map((points, side) => `${table.sideName(side)} ${said(points)}`).join(", ")}`;
    return `${verdict}; ${score}`;
  }
}
