/**
 * A match's replay: `#replay=TABLE/MATCH` (with `&hand=H&step=S&seat=V` to jump to a card),
 * from `GET /api/replays/{table}/{match}` and `…/hands/{hand}?seat=V` (docs/protocol.md,
 * "Replays").
 *
 * The table is the game's own table view (table.js with the game's widgets), drawn from the
 * steps the server sends as if they were the table's messages: every seat's cards shown or
 * only the bottom seat's, as the viewer chooses; step forward and back card by card or trick
 * by trick with the buttons, the keys (← →, Shift or ↑ ↓ for tricks, Home, End) and the
 * slider. Under the table: what happened at this step, the solver's analysis on request (asked
 * again until the server has worked it out), each hand's result, and the match's chat. Nothing
 * can be played: a click on a card says so. The bar downloads the match's record and PBN;
 * `#replay=import` replays a record file the player brings instead.
 *
 * @module replay
 */

import { el, replayHref, seatName } from "./dom.js";
import { handAsItEnded } from "./hand_end.js";
import { load } from "./storage.js";
import { TABLE_MODULES } from "./table_games.js";
import { presetTitle } from "./lobby.js";
import { fetchJSON, screenNav, showFailure, showLoading } from "./players.js";
import { parText, slipsSummary, verdictLine, withSymbols } from "./analysis_words.js";
import { score } from "./markup.js";

/** What a click on a card says: nothing is played in a replay. */
const REPLAY_ONLY = "This is a replay: nothing can be played here.";

/** How often a replay asks again while a hand's analysis is worked out (ms). */
const ANALYSIS_POLL_MS = 1500;

/** The hash of the screen that watches a record file (`#replay=import`). */
export const IMPORTED = "import";
/** Where the record file being watched is kept for this tab (a refresh shows it again). */
const IMPORT_KEY = "cardroom-imported-record";
/** The largest record file the room replays (the server's limit too). */
const IMPORT_BYTES_MAX = 256 * 1024;

/**
 * Read a replay hash's parameters (`params` from the hash), or null if it names no replay.
 * @param {URLSearchParams} params
 * @returns {{table: string, match: number, hand: number, step: number, seat: number|null,
 *   imported: boolean}|null}
 */
export function parseReplay(params) {
  const where = params.get("replay");
  const found = where === IMPORTED ? [where, IMPORTED, "1"] : where && /^([^/]{1,64})\/(\d{1,9})$/.exec(where);
  if (!found) return null;
  const whole = (key, fallback) => {
    const value = Number(params.get(key));
    return params.has(key) && Number.isInteger(value) && value >= 0 ? value : fallback;
  };
  return { table: found[1], match: Number(found[2]), hand: Math.max(1, whole("hand", 1)),
    step: whole("step", 0), seat: whole("seat", null), imported: where === IMPORTED };
}

/**
 * Ask the room for a replay document: GET with the table's invite, if this browser holds
 * one; with a `body` (a record file), POST it.
 */
function ask(path, tableId, body = null) {
  const invite = tableId ? load().invites[tableId] : null;
  const url = invite ? `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(invite)}` : path;
  return fetchJSON(url, body === null ? {}
    : { method: "POST", headers: { "Content-Type": "text/plain" }, body });
}

/**
 * Where a replay's documents come from: a match the room keeps (`where.table`, `where.match`)
 * or the record file brought to this tab.
 * @returns {{summary: () => Promise<object>, hand: (hand: number, seat: number) => Promise<object>,
 *   analysis: (hand: number) => Promise<object>}}
 */
function sourceOf(where, text) {
  if (where.imported) {
    return { summary: () => ask("/api/replays/import", null, text),
      hand: (hand, seat) => ask(`/api/replays/import?hand=${hand}&seat=${seat}`, null, text),
      analysis: (hand) => ask(`/api/replays/import?hand=${hand}&analysis=1`, null, text) };
  }
  const base = `/api/replays/${encodeURIComponent(where.table)}/${where.match}`;
  return { summary: () => ask(base, where.table),
    hand: (hand, seat) => ask(`${base}/hands/${hand}?seat=${seat}`, where.table),
    analysis: (hand) => ask(`${base}/hands/${hand}/analysis`, where.table) };
}

/** The replay on screen: a newer one supersedes it. */
let current = null;

/**
 * Load a match's replay (or the record file this tab was given) and show it in `root`.
 * @param {HTMLElement} root
 * @param {{table: string, match: number, hand: number, step: number, seat: number|null,
 *   imported: boolean}} where
 * @param {import("./players.js").PlayersContext & {options: object}} ctx
 */
export async function showReplay(root, where, ctx) {
  const same = current && current.tableId === where.table && current.number === where.match;
  if (same && current.root === root) return current.go(where);
  closeReplay();
  const text = where.imported ? sessionStorage.getItem(IMPORT_KEY) : null;
  if (where.imported && !text) return showImportPicker(root, ctx);
  const replay = new Replay(root, where, ctx, sourceOf(where, text));
  current = replay;
  await replay.start();
}

/** Stop the replay shown (its keys and the table's timers) and take it off the page: one table
 * at a time is in the page, the one on screen. */
export function closeReplay() {
  current?.destroy();
  current?.root.replaceChildren();
  current = null;
}

/**
 * The screen that asks for a record file to watch (`cardroom play --record`, or a match's
 * Record download); the file stays in this tab only.
 */
function showImportPicker(root, ctx, problem = "") {
  const input = el("input", { type: "file", accept: ".record,.txt,text/plain", "data-testid": "replay-file",
    id: "replay-file" });
  const message = el("p", { class: "players-error", role: "alert", "data-testid": "replay-file-error", text: problem });
  message.hidden = !problem;
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > IMPORT_BYTES_MAX) {
      showImportPicker(root, ctx, `A record file is at most ${IMPORT_BYTES_MAX / 1024} KB; this one is larger.`);
      return;
    }
    const text = await file.text();
    try {
      await ask("/api/replays/import", null, text); // said wrong before it is kept
    } catch (error) {
      showImportPicker(root, ctx, error.message);
      return;
    }
    sessionStorage.setItem(IMPORT_KEY, text);
    closeReplay();
    showReplay(root, { table: IMPORTED, match: 1, hand: 1, step: 0, seat: null, imported: true }, ctx);
  });
  root.replaceChildren(screenNav(ctx), el("section", { class: "card replay-import", "data-testid": "replay-import" },
    el("h1", { text: "Watch a match record" }),
    el("p", { class: "muted", text: "A record is the file a match's Record link downloads, or that cardroom play --record saves. It is replayed here card by card, every hand shown; nothing is kept by the room." }),
    el("label", { for: "replay-file", text: "Record file" }), input, message));
}

/** Forget the record file this tab watches and ask for another. */
function forgetImport(root, ctx) {
  sessionStorage.removeItem(IMPORT_KEY);
  closeReplay();
  history.replaceState(null, "", `#replay=${IMPORTED}`);
  showImportPicker(root, ctx);
}

class Replay {
  constructor(root, where, ctx, source) {
    this.root = root;
    this.ctx = ctx;
    this.source = source;
    this.imported = where.imported;
    this.tableId = where.table;
    this.number = where.match;
    this.where = where;
    this.match = null;
    this.steps = [];
    this.step = 0;
    this.hand = where.hand;
    this.seat = where.seat;
    this.allHands = true;
    this.table = null;
    this.loading = 0;
    /** The solver's analysis: shown or not, the hand's once ready, its cards by action. */
    this.analysing = false;
    this.analysis = null;
    this.verdicts = new Map();
    this.calls = new Map();
    this.analysisTimer = 0;
    this.onKey = (event) => this.key(event);
  }

  async start() {
    showLoading(this.root, this.ctx, "Fetching the match…");
    let match;
    let module;
    try {
      match = await this.source.summary();
      const [path, className] = TABLE_MODULES[match.game] || TABLE_MODULES[500];
      module = { View: (await import(path))[className] };
    } catch (error) {
      if (current === this) showFailure(this.root, this.ctx, error);
      return;
    }
    if (current !== this) return;
    this.match = match;
    this.names = match.seats.map((seat, n) => seatName(seat, n));
    if (this.seat === null || this.seat >= match.players) this.seat = match.seat ?? 0;
    this.build(module.View);
    document.addEventListener("keydown", this.onKey);
    if (!match.hands) {
      this.say("No hand of this match is over yet: there is nothing to replay.");
      return;
    }
    await this.load(Math.min(this.hand, match.hands), this.where.step);
  }

  /** Lay out the page: the bar, the table, the controls and what is under them. */
  build(View) {
    const match = this.match;
    const title = `${match.title} · ${presetTitle(match.game, match.preset) || match.preset || "House rules"} · match ${match.match}`;
    this.handPicker = el("select", { class: "replay-hand", "aria-label": "Hand", "data-testid": "replay-hand" },
      ...match.history.map((hand, n) => el("option", { value: String(n + 1), text: handLabel(hand, n) })));
    this.handPicker.addEventListener("change", () => this.load(Number(this.handPicker.value), 0));
    this.seatPicker = el("select", { class: "replay-seat", "aria-label": "Seen from", "data-testid": "replay-seat" },
      ...this.names.map((name, seat) => el("option", { value: String(seat), text: `Seen from ${name}` })));
    this.seatPicker.value = String(this.seat);
    this.seatPicker.addEventListener("change", () => {
      this.seat = Number(this.seatPicker.value);
      this.load(this.hand, this.step);
    });
    this.allToggle = el("input", { type: "checkbox", checked: true, "data-testid": "replay-all-hands" });
    this.allToggle.addEventListener("change", () => {
      this.allHands = this.allToggle.checked;
      this.show(this.step, false);
    });
    const button = (label, title, testid, action) => {
      const b = el("button", { type: "button", class: "btn btn-small replay-step", title, "aria-label": title,
        "data-testid": testid, text: label });
      b.addEventListener("click", action);
      return b;
    };
    this.slider = el("input", { type: "range", min: "0", max: "0", value: "0", class: "replay-slider",
      "aria-label": "Step of the hand", "data-testid": "replay-slider" });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value), false));
    this.counter = el("span", { class: "replay-counter muted small", "data-testid": "replay-counter" });
    this.moveLine = el("p", { class: "replay-move", "data-testid": "replay-move", role: "status", "aria-live": "polite" });
    this.auctionLine = el("p", { class: "replay-auction muted", "data-testid": "replay-auction" });
    this.analysisToggle = el("button", { type: "button", class: "btn btn-small replay-analyse", "aria-pressed": "false",
      "data-testid": "replay-analyse", text: "Solver's analysis",
      title: "What every card cost, with all hands known (worked out on the server)" });
    this.analysisToggle.addEventListener("click", () => this.toggleAnalysis());
    this.analysisLine = el("div", { class: "replay-analysis", "data-testid": "replay-analysis", hidden: true });
    this.tableRoot = el("div", { class: "table-root replay-table" });
    this.results = el("ol", { class: "replay-results", "data-testid": "replay-results" },
      ...match.history.map((hand, n) => el("li", {}, el("a", {
        href: this.href({ hand: n + 1 }), text: handLabel(hand, n) }))));
    const chat = (match.chat || []).map((line) => el("li", {}, el("strong", { text: `${line.name}: ` }), line.text));
    this.root.replaceChildren(
      screenNav(this.ctx),
      el("div", { class: "replay", "data-testid": "replay" },
        el("div", { class: "table-toolbar replay-bar" },
          el("span", { class: "replay-title", "data-testid": "replay-title", text: title }),
          this.handPicker, this.seatPicker,
          el("label", { class: "replay-all" }, this.allToggle, " Every hand shown"),
          this.analysisToggle,
          ...this.downloads()),
        this.tableRoot,
        el("div", { class: "replay-controls", "data-testid": "replay-controls" },
          button("⏮", "Start of the hand (Home)", "replay-first", () => this.show(0, false)),
          button("⏪", "Previous trick (Shift+←)", "replay-prev-trick", () => this.show(this.trickBefore(), false)),
          button("◀", "Previous card (←)", "replay-prev", () => this.show(this.step - 1, false)),
          this.slider,
          button("▶", "Next card (→)", "replay-next", () => this.show(this.step + 1, true)),
          button("⏩", "Next trick (Shift+→)", "replay-next-trick", () => this.show(this.trickAfter(), false)),
          button("⏭", "End of the hand (End)", "replay-last", () => this.show(this.steps.length - 1, false)),
          this.counter),
        this.moveLine,
        this.auctionLine,
        this.analysisLine,
        el("details", { class: "replay-more card" },
          el("summary", { text: "Every hand's result" }), this.results),
        chat.length ? el("details", { class: "replay-more card", "data-testid": "replay-chat" },
          el("summary", { text: "The table's chat" }), el("ol", { class: "replay-chat" }, ...chat)) : null));
    this.table = new View(this.tableRoot, {
      send: () => Promise.reject({ code: "replay", message: REPLAY_ONLY }),
      me: this.ctx.me() || { player_id: null, name: "" },
      options: this.ctx.options,
      rulesLink: match.preset ? `/rules/${match.game}/${match.preset}` : "/rules",
      onLeave: () => history.back(),
      notify: () => {},
      replay: true,
    });
  }

  /** The address of this replay at a hand, step and seat. */
  href(at) {
    return this.imported ? replayHref(IMPORTED, null, at) : replayHref(this.tableId, this.number, at);
  }

  /** The bar's files: a kept match's record and PBN to download; for a record file, another
   * one. */
  downloads() {
    if (this.imported) {
      const another = el("button", { type: "button", class: "btn btn-small", "data-testid": "replay-another",
        text: "Open another record" });
      another.addEventListener("click", () => forgetImport(this.root, this.ctx));
      return [another];
    }
    if (!this.match.finished) return [];
    const base = `/api/matches/${encodeURIComponent(this.tableId)}/${this.number}`;
    return [
      el("a", { class: "btn btn-small", href: `${base}/record`, download: "", "data-testid": "replay-record",
        text: "Record", title: "Download the match's record: cardroom replay FILE plays it back, and this page watches it" }),
      el("a", { class: "btn btn-small", href: `${base}/pbn`, download: "", "data-testid": "replay-pbn",
        text: "PBN", title: "Download the match as PBN: each hand's deal, bidding and play, for other card programs" }),
    ];
  }

  /** Fetch a hand's steps from the seat chosen and show step `step`. */
  async load(hand, step) {
    const ticket = ++this.loading;
    this.say("Fetching the hand…");
    let answer;
    try {
      answer = await this.source.hand(hand, this.seat);
    } catch (error) {
      if (ticket === this.loading) this.say(error.message);
      return;
    }
    if (ticket !== this.loading || current !== this) return;
    this.hand = hand;
    this.steps = answer.steps;
    this.handPicker.value = String(hand);
    this.slider.max = String(this.steps.length - 1);
    this.table.ending.reset();
    this.analysis = null;
    this.verdicts = new Map();
    this.calls = new Map();
    this.show(Math.min(step, this.steps.length - 1), false);
    if (this.analysing) this.fetchAnalysis();
  }

  /** Show or hide the solver's analysis (asked for the first time it is shown). */
  toggleAnalysis() {
    this.analysing = !this.analysing;
    this.analysisToggle.setAttribute("aria-pressed", String(this.analysing));
    this.analysisLine.hidden = !this.analysing;
    if (this.analysing && !this.analysis) this.fetchAnalysis();
    this.renderAnalysis();
  }

  /** Ask for the hand's analysis until it is ready, saying how far along it is. */
  async fetchAnalysis() {
    clearTimeout(this.analysisTimer);
    const hand = this.hand;
    let status;
    try {
      status = await this.source.analysis(hand);
    } catch (error) {
      status = { state: "unavailable", reason: error.message };
    }
    if (current !== this || hand !== this.hand) return;
    this.analysisState = status;
    if (status.state === "ready") {
      this.analysis = status.analysis;
      this.verdicts = new Map(status.analysis.cards.map((card) => [card.action, card]));
      this.calls = new Map((status.analysis.bidding || []).map((call) => [call.action, call]));
    } else if (status.state !== "unavailable" && this.analysing) {
      this.analysisTimer = setTimeout(() => this.fetchAnalysis(), ANALYSIS_POLL_MS);
    }
    this.renderAnalysis();
  }

  /**
   * The analysis for the step on show: the par table and what the contract could make, then
   * the card's verdict (what its side could still take before and after it, and the better
   * cards); while it is worked out, how far along.
   */
  renderAnalysis() {
    const line = this.analysisLine;
    if (!line || !this.analysing) return;
    const status = this.analysisState;
    if (!this.analysis) {
      line.dataset.state = status?.state || "queued";
      line.replaceChildren(el("span", { class: "replay-spinner", "aria-hidden": "true" }),
        status?.state === "unavailable" ? status.reason
          : status?.state === "working" || status?.ahead === 0 ? "The solver is analysing this hand…"
            : `Waiting for the solver: ${status?.ahead ?? "some"} hand${status?.ahead === 1 ? "" : "s"} ahead…`);
      return;
    }
    line.dataset.state = "ready";
    const analysis = this.analysis;
    const entry = this.steps[this.step];
    const verdict = entry ? this.verdicts.get(entry.index) : null;
    const call = entry ? this.calls?.get(entry.index) : null;
    line.replaceChildren(el("p", { class: "replay-par", "data-testid": "replay-par" }, parText(analysis, this.names)),
      verdict ? verdictLine(analysis, verdict, this.names)
        : call ? callLine(call, this.names)
          : el("p", { class: "muted small", text: slipsSummary(analysis, this.names) }));
  }

  /** Follow a new hash for this match (a link to another hand or card). */
  go(where) {
    if (where.seat !== null && where.seat !== this.seat) {
      this.seat = where.seat;
      this.seatPicker.value = String(where.seat);
      return this.load(where.hand, where.step);
    }
    if (where.hand !== this.hand) return this.load(where.hand, where.step);
    this.show(where.step, false);
  }

  /**
   * Draw step `index`; `animate` plays its events (the next card, one step on), otherwise the
   * table is drawn as the step stands.
   */
  show(index, animate) {
    if (!this.steps.length) return;
    const step = Math.max(0, Math.min(index, this.steps.length - 1));
    animate = animate && step === this.step + 1;
    this.step = step;
    const entry = this.steps[step];
    let view = this.allHands ? { ...entry.view, open_hands: { ...entry.hands, ...entry.view.open_hands } } : entry.view;
    const won = entry.events.find((event) => event.type === "trick");
    if (won && !animate && !entry.ended) {
      // Reached without the animation: the trick just won stays in the middle to be seen.
      view = { ...view, trick: won.seats.map((seat, n) => ({ seat, card: won.cards[n] })) };
    }
    const match = this.match;
    const message = {
      type: "table", table_id: `replay-${this.tableId}`, version: step, seat: this.seat,
      match_number: this.number, status: "playing", teams: match.teams, clock: null, hints: false,
      seats: match.seats.map((seat) => ({ ...seat, connected: true, away: false })),
      view: entry.ended ? handAsItEnded(view, entry.events, this.table.game) : view,
    };
    this.table.ending.reset();
    this.table.draw(message, animate || entry.ended ? entry.events : []);
    this.slider.value = String(step);
    this.counter.textContent = `${step} / ${this.steps.length - 1}`;
    this.say(this.moveText(entry));
    this.auctionLine.textContent = auctionText(entry.view.bidding, this.names);
    this.renderAnalysis();
    history.replaceState(null, "", this.href({ hand: this.hand, step, seat: this.seat }));
  }

  /** What happened at a step, in words. */
  moveText(entry) {
    if (entry.action === null) return `Hand ${this.hand}: the cards are dealt (${this.names[entry.view.dealer]} deals).`;
    const who = this.names[entry.seat] ?? `Seat ${entry.seat}`;
    const scored = entry.events.find((event) => event.type === "hand_scored");
    const trick = entry.events.find((event) => event.type === "trick");
    // The game's words for what its events tell (a claim and its answers), else the action.
    const news = this.table.game.newsText(entry.events);
    let text = news || `${who}: ${withSymbols(entry.action)}`;
    if (trick) text += ` — ${this.names[trick.winner]} takes the trick`;
    if (scored) text += `. ${withSymbols(scored.summary)}`;
    return text;
  }

  /** The step that ends the trick before the current one (or the hand's start). */
  trickBefore() {
    for (let n = this.step - 1; n > 0; n--) if (endsTrick(this.steps[n])) return n;
    return 0;
  }

  /** The step that ends the next trick (or the hand's end). */
  trickAfter() {
    for (let n = this.step + 1; n < this.steps.length; n++) if (endsTrick(this.steps[n])) return n;
    return this.steps.length - 1;
  }

  key(event) {
    if (!this.steps.length || event.target.closest?.("input[type=text], textarea, select")) return;
    const moves = {
      ArrowLeft: () => (event.shiftKey ? this.trickBefore() : this.step - 1),
      ArrowRight: () => (event.shiftKey ? this.trickAfter() : this.step + 1),
      ArrowUp: () => this.trickBefore(),
      ArrowDown: () => this.trickAfter(),
      Home: () => 0,
      End: () => this.steps.length - 1,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const target = move();
    this.show(target, target === this.step + 1 && !event.shiftKey);
  }

  say(text) {
    if (this.moveLine) this.moveLine.textContent = text;
  }

  destroy() {
    clearTimeout(this.analysisTimer);
    document.removeEventListener("keydown", this.onKey);
    this.table?.destroy?.();
    this.loading++;
  }
}

/** A step where a trick was won. */
function endsTrick(step) {
  return step.events.some((event) => event.type === "trick");
}

/** A hand's line: its number, its contract and result, and the scores after it. */
function handLabel(hand, n) {
  const scores = (hand.scores || []).map(score).join(" – ");
  const summary = withSymbols(hand.summary || "");
  return `Hand ${n + 1}: ${summary}${scores ? ` (${scores})` : ""}`;
}

/** The hand's calls so far, in order: "Calls: Bot 2 pass · Bot 3 6NT · Bot 4 7♥". */
function auctionText(bidding, names) {
  if (!bidding || !bidding.length) return "";
  const call = (entry) => `${names[entry.seat]} ${withSymbols(String(entry.bid))}${entry.blind ? " blind" : ""}`;
  return `Calls: ${bidding.map(call).join(" · ")}`;
}

/** A call beside the one the Expert bot (bidding by the learned hand evaluator) would make. */
function callLine(call, names) {
  const words = (action) => withSymbols(action.replace(/^bid /, ""));
  const same = call.call === call.bot;
  return el("p", { class: `replay-call${same ? " same" : ""}`, "data-testid": "replay-call",
    text: same ? `${names[call.seat]}: ${words(call.call)}, as the Expert bot would call.`
      : `${names[call.seat]}: ${words(call.call)}; the Expert bot, with the same cards and calls, would say ${words(call.bot)}.` });
}

