/**
 * The table's chat, in the side panel: the players' line (and the spectators', shown to a
 * seated player only if they turn it on), quick phrases and reactions for one tap on a phone,
 * typed lines when the table allows them, and muting a player for yourself.
 *
 * Every line is plain text (textContent, never markup). The phrases and reactions, and the
 * longest line, come from the server (`/api/chat`), so the buttons can only send what the
 * server accepts. Muted players are remembered by this browser (storage.js).
 *
 * @module chat
 */

import { el, nameLink } from "./dom.js";
import { load, save } from "./storage.js";

/** The most lines kept on screen per table (older ones scroll away for good). */
const KEPT_LINES = 200;

/**
 * The phrases, reactions and longest line the server accepts, fetched once.
 * @type {Promise<{phrases: Object<string, string>, reactions: Object<string, string>, max_length: number}>}
 */
const vocabulary = fetch("/api/chat").then((answer) => answer.json())
  .catch(() => ({ phrases: {}, reactions: {}, max_length: 200 }));

/**
 * @typedef {object} ChatLine
 * @property {number} at
 * @property {string} player_id
 * @property {string} name
 * @property {number|null} seat
 * @property {"players"|"spectators"} channel
 * @property {"text"|"phrase"|"reaction"} kind
 * @property {string} text
 */

export class ChatPanel {
  /**
   * @param {HTMLElement} root the panel section's body
   * @param {{say: (line: object) => Promise<unknown>, notify: (message: string) => void,
   *          me: () => ({player_id: string}|null), onUnread: (count: number) => void}} ctx
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    /** @type {string|null} */
    this.tableId = null;
    /** @type {ChatLine[]} */
    this.lines = [];
    this.seated = false;
    this.typedChat = true;
    this.unread = 0;
    this.log = el("ol", { class: "chat-log", "data-testid": "chat-log", "aria-live": "polite",
      "aria-label": "Chat at this table" });
    this.phrases = el("div", { class: "chat-phrases", role: "group", "aria-label": "Quick phrases" });
    this.reactions = el("div", { class: "chat-reactions", role: "group", "aria-label": "Reactions" });
    this.input = el("input", { type: "text", id: "chat-input", class: "chat-input", maxlength: 200,
      autocomplete: "off", placeholder: "Say something", "aria-label": "Chat message" });
    this.form = el("form", { class: "chat-form", "data-testid": "chat-form" }, this.input,
      el("button", { type: "submit", class: "btn btn-small", text: "Send" }));
    this.off = el("p", { class: "muted small chat-off", hidden: true,
      text: "Typed chat is off at this table: quick phrases and reactions still work." });
    this.muted = el("p", { class: "muted small chat-muted" });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (text) this.send({ text }).then((sent) => { if (sent) this.input.value = ""; });
    });
    root.replaceChildren(this.log, this.phrases, this.reactions, this.form, this.off, this.muted);
    vocabulary.then(({ phrases, reactions, max_length: longest }) => {
      this.input.maxLength = longest;
      this.phrases.replaceChildren(...Object.entries(phrases).map(([name, text]) =>
        el("button", { type: "button", class: "btn btn-small chat-phrase", text,
          dataset: { phrase: name }, on: { click: () => this.send({ phrase: name }) } })));
      this.reactions.replaceChildren(...Object.entries(reactions).map(([name, text]) =>
        el("button", { type: "button", class: "btn btn-small chat-reaction", text,
          "aria-label": `React ${name.replace(/_/g, " ")}`, dataset: { reaction: name },
          on: { click: () => this.send({ reaction: name }) } })));
    });
    this.render();
  }

  /**
   * The table shown changed or moved on: a new table starts an empty log (its history
   * comes with the `open`); a table message says whether we sit and whether typing is on.
   * @param {string|null} tableId
   * @param {{seat: number|null, typed_chat?: boolean}|null} message
   */
  setTable(tableId, message) {
    if (tableId !== this.tableId) {
      this.tableId = tableId;
      this.lines = [];
      this.unread = 0;
      this.ctx.onUnread(0);
    }
    this.seated = message?.seat != null;
    this.typedChat = message?.typed_chat !== false;
    this.render();
  }

  /**
   * A `chat` message: its lines join the log (lines of another table are ignored).
   * @param {{table_id: string, lines: ChatLine[]}} message
   * @param {boolean} seen whether the panel is in view (else the lines count as unread)
   */
  receive(message, seen) {
    if (message.table_id !== this.tableId) return;
    this.lines.push(...message.lines);
    this.lines.splice(0, Math.max(0, this.lines.length - KEPT_LINES));
    const mine = this.ctx.me()?.player_id;
    const fresh = message.lines.filter((line) => this.shows(line) && line.player_id !== mine).length;
    if (!seen && fresh) {
      this.unread += fresh;
      this.ctx.onUnread(this.unread);
    }
    this.render();
  }

  /** The panel came into view: nothing is unread any more. */
  seen() {
    this.unread = 0;
    this.ctx.onUnread(0);
  }

  /**
   * Whether a line is shown: not from a muted player, and a spectator's line only to
   * spectators or to players who turned the spectators' line on.
   * @param {ChatLine} line
   */
  shows(line) {
    const stored = load();
    if (stored.muted.includes(line.player_id)) return false;
    return line.channel === "players" || !this.seated || stored.spectatorChat;
  }

  /**
   * Say a line; a refusal (a limit, typed chat off) is shown as a notice.
   * @param {object} line `{text}`, `{phrase}` or `{reaction}`
   * @returns {Promise<boolean>} whether the server took it
   */
  async send(line) {
    try {
      await this.ctx.say(line);
      return true;
    } catch (error) {
      if (error?.message) this.ctx.notify(error.message);
      return false;
    }
  }

  /**
   * Hide (or show again) a player's lines, for this browser only.
   * @param {string} playerId
   * @param {boolean} muted
   */
  setMuted(playerId, muted) {
    const list = load().muted.filter((id) => id !== playerId);
    save({ muted: muted ? [...list, playerId] : list });
    this.render();
  }

  render() {
    const mine = this.ctx.me()?.player_id;
    const shown = this.lines.filter((line) => this.shows(line));
    this.log.replaceChildren(...shown.map((line) => el("li", {
      class: `chat-line chat-${line.kind} chat-${line.channel}`, dataset: { player: line.player_id } },
    nameLink(line.name, line.player_id, "chat-name"),
    line.channel === "spectators" ? el("span", { class: "tag chat-watching", text: "watching" }) : null,
    el("span", { class: "chat-text", text: line.text }),
    line.player_id !== mine ? el("button", { type: "button", class: "chat-mute", text: "Mute",
      title: `Hide ${line.name}'s messages (only you)`, "aria-label": `Mute ${line.name}`,
      on: { click: () => this.setMuted(line.player_id, true) } }) : null)));
    if (!shown.length) {
      this.log.append(el("li", { class: "chat-empty muted small", text: this.tableId
        ? "No messages yet. Say hello, or tap a quick phrase." : "Open a table to chat there." }));
    }
    this.log.scrollTop = this.log.scrollHeight;
    this.form.hidden = !this.typedChat;
    this.off.hidden = this.typedChat;
    const names = new Map(this.lines.map((line) => [line.player_id, line.name]));
    const muted = load().muted.filter((id) => names.has(id));
    this.muted.replaceChildren(...(muted.length ? ["Muted: ", ...muted.flatMap((id, n) => [
      n ? ", " : "", el("button", { type: "button", class: "link-button", text: `${names.get(id)} (unmute)`,
        on: { click: () => this.setMuted(id, false) } })])] : []));
  }
}
