/**
 * Hints at casual tables (`hints: true` in the `table` message): a "Hint" button on my turn
 * asks the server (`hint`, docs/protocol.md) what the search bot would do in my seat. The
 * suggestion is marked where it can be taken: the card in my hand, the bid in the grid (or a
 * button whose `data-action` is the action), the cards to put back in a kitty exchange, plus
 * a line saying what and why. The mark goes when I act or the table moves on.
 *
 * It works for any table drawn by {@link TableView}, whatever game's widgets drew its panels,
 * since it only looks for the shared selectors: `[data-card]` in the hand, kitty and picked
 * areas, `[data-bid]`, `[data-action]`, `[data-testid=pass]` and `[data-testid=look]`.
 *
 * @module hint
 */

import { SUITS, cardName } from "./cards.js";

/** Events that change who is present but not the game: a hint stays good across them. */
const PRESENCE_EVENTS = new Set(["offline", "away", "connected", "seats"]);

/** Where my cards are drawn (a suggested card is looked for in these only). */
const CARD_AREAS = "[data-testid=hand], [data-testid=kitty], [data-testid=picked]";

/** An action's text made readable: "play QH" → "Play the Queen of hearts". */
export function describeAction(action, view) {
  const [verb, ...rest] = action.split(" ");
  const named = (text) => {
    const [card, suit] = text.split(":");
    const name = cardName(card);
    return suit && SUITS[suit] ? `${name}, as ${SUITS[suit].name}` : name;
  };
  if (verb === "play" && rest.length) {
    const extra = rest[1] === "marriage" ? ", declaring its marriage" : "";
    return `Play the ${named(rest[0])}${extra}`;
  }
  if (verb === "give" && rest.length) return `Give ${rest.map(named).join(" and ")}`;
  if (verb === "discard" && rest.length) return `Put back ${rest.map(named).join(", ")}`;
  if (verb === "bid" && rest.length) {
    const entry = ((view && view.ladder) || []).find((e) => e.bid === rest.join(" "));
    return `Bid ${entry && entry.name ? entry.name : rest.join(" ")}`;
  }
  if (verb === "pass") return "Pass";
  return action.charAt(0).toUpperCase() + action.slice(1);
}

export class HintControl {
  /** @param {import("./table.js").TableView} table the table view it serves */
  constructor(table) {
    this.table = table;
    /** The hint on show: the `hint` answer ({table_id, version, seat, action, explanation}). */
    this.hint = null;
    this.asking = false;
    /** Counts the game's moves seen (not presence changes), to tell a stale answer. */
    this.position = 0;
    this.seenVersion = null;
    this.seenKey = "";
    const box = document.createElement("div");
    box.className = "ct-hint";
    box.hidden = true;
    box.innerHTML = `<button type="button" class="ct-button ct-hint-button" data-testid="hint" aria-keyshortcuts="H" title="Ask the search bot what it would do in your seat (key: H)" hidden>Hint</button>
      <div class="ct-hint-text" data-testid="hint-text" role="status" aria-live="polite" hidden></div>`;
    const mine = table.root.querySelector(".ct-mine") || table.root;
    mine.prepend(box);
    this.box = box;
    this.button = box.querySelector("[data-testid=hint]");
    this.text = box.querySelector("[data-testid=hint-text]");
    this.button.addEventListener("click", () => this.ask());
    this.onKey = (event) => {
      if (event.key !== "h" && event.key !== "H") return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const target = event.target;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (this.button.hidden || !table.root.isConnected) return;
      event.preventDefault();
      this.ask();
    };
    document.addEventListener("keydown", this.onKey);
  }

  /** Whether I may ask now: a casual table, my seat, my turn. */
  allowed() {
    const message = this.table.message;
    return Boolean(message && message.hints && this.table.mySeat !== null && this.table.isMyTurn());
  }

  /** After every update: the button on my turn; a hint kept until the game moves on (a
   * player coming or going changes the version, not the position). */
  render() {
    const message = this.table.message;
    if (message && message.version !== this.seenVersion) {
      this.seenVersion = message.version;
      const key = `${message.table_id}:${message.match_number}`;
      const moved = key !== this.seenKey
        || (message.events || []).some((event) => !PRESENCE_EVENTS.has(event.type));
      this.seenKey = key;
      if (moved) {
        this.position += 1;
        this.hint = null;
      }
    }
    this.box.hidden = !(message && message.hints && this.table.mySeat !== null);
    this.button.hidden = !this.allowed();
    this.mark();
  }

  /** Ask the server; show the answer if the table has not moved on meanwhile. */
  async ask() {
    if (this.asking || !this.allowed()) return;
    this.asking = true;
    this.button.disabled = true;
    this.button.textContent = "Thinking…";
    const position = this.position;
    try {
      const answer = await this.table.ctx.hint();
      const message = this.table.message;
      if (message && answer.table_id === message.table_id && position === this.position && this.allowed()) {
        this.hint = answer;
        this.mark();
        this.focusMarked();
      }
    } catch (error) {
      this.table.showNotice((error && error.message) || String(error));
    } finally {
      this.asking = false;
      this.button.disabled = false;
      this.button.textContent = "Hint";
    }
  }

  /** Forget the hint (I acted). */
  clear() {
    this.hint = null;
    this.mark();
  }

  /** The elements that take the suggested action, wherever this table draws them. */
  targets(action) {
    const root = this.table.root;
    const found = [];
    const add = (element) => { if (element && !found.includes(element)) found.push(element); };
    const [verb, ...rest] = action.split(" ");
    for (const element of root.querySelectorAll("[data-action]")) {
      if (element.dataset.action === action) add(element);
    }
    if ((verb === "play" || verb === "give" || verb === "discard") && rest.length) {
      const cards = new Set((verb === "play" ? rest.slice(0, 1) : rest).map((text) => text.split(":")[0]));
      for (const area of root.querySelectorAll(CARD_AREAS)) {
        for (const element of area.querySelectorAll("[data-card]")) {
          if (cards.has(element.dataset.card)) add(element);
        }
      }
    } else if (verb === "bid" && rest.length) {
      add(root.querySelector(`[data-bid="${CSS.escape(rest.join(" "))}"]`));
    } else if (verb === "pass" || verb === "look") {
      add(root.querySelector(`[data-testid=${verb}]`));
    }
    return found.filter((element) => !element.hidden);
  }

  /** Put the marks (and the line of text) where the hint says, and nowhere else. */
  mark() {
    const root = this.table.root;
    for (const element of root.querySelectorAll(".hinted")) element.classList.remove("hinted");
    const hint = this.hint;
    this.text.hidden = !hint;
    if (!hint) {
      this.text.textContent = "";
      return;
    }
    for (const element of this.targets(hint.action)) element.classList.add("hinted");
    this.text.innerHTML = "";
    const what = document.createElement("strong");
    what.textContent = `Hint: ${describeAction(hint.action, this.table.view)}.`;
    const why = document.createElement("span");
    why.textContent = ` ${hint.explanation}`;
    this.text.append(what, why);
  }

  /** Keyboard players land on a suggested card or bid: Enter then takes it. (Not in a
   * kitty exchange, where Enter on a card selects it for a swap.) */
  focusMarked() {
    if (!this.hint || !/^(play|bid|pass|look) ?/.test(this.hint.action)) return;
    const first = this.table.root.querySelector(".hinted");
    if (first && typeof first.focus === "function") first.focus({ preventScroll: true });
  }

  /** Stop listening for the key. */
  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }
}
