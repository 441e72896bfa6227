/**
 * Calling a player back to a background tab when it is their turn: the tab's title and icon
 * change, the turn sound plays (when sound is on), and a desktop notification shows if the
 * player turned notifications on and the browser allows them. Everything goes back as soon
 * as the tab is looked at again or the turn passes.
 *
 * @module attention
 */

import { playSound } from "./options.js";

const TURN_ICON = "/static/favicon-turn.svg";

export class Attention {
  /**
   * @param {{notifications: () => boolean}} ctx whether the player wants notifications
   */
  constructor(ctx) {
    this.ctx = ctx;
    this.title = document.title;
    this.icon = document.querySelector("link[rel=icon]");
    this.plainIcon = this.icon?.getAttribute("href") || "/static/favicon.svg";
    /** The turn already signalled (table, version), so one turn calls once. */
    this.signalled = null;
    this.waiting = false;
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden) this.clear();
    });
  }

  /**
   * A table message came: call the player if it is their turn and they are not looking.
   * @param {object} message the table shown's latest `table` message
   */
  update(message) {
    const view = message?.view;
    const myTurn = Boolean(view) && message.status === "playing" && message.seat != null
      && view.to_act === message.seat;
    if (!myTurn) {
      this.clear();
      return;
    }
    const turn = `${message.table_id}:${message.match_number}:${view.history?.length}:${view.phase}`;
    if (!document.hidden || this.signalled === turn) return;
    this.signalled = turn;
    this.waiting = true;
    document.title = `▶ Your turn — ${this.title}`;
    this.icon?.setAttribute("href", TURN_ICON);
    document.body.dataset.attention = "turn";
    playSound("turn");
    if (this.ctx.notifications() && "Notification" in window && Notification.permission === "granted") {
      try {
        const note = new Notification("Your turn at the card room", {
          body: "The table is waiting for you.", tag: "cardroom-turn", icon: TURN_ICON });
        note.onclick = () => {
          window.focus();
          note.close();
        };
      } catch {
        // Some browsers only notify from a service worker: the title still says it.
      }
    }
  }

  /** The player is looking (or the turn passed): the tab goes back to normal. */
  clear() {
    if (!this.waiting) return;
    this.waiting = false;
    document.title = this.title;
    this.icon?.setAttribute("href", this.plainIcon);
    delete document.body.dataset.attention;
  }
}

/**
 * Ask the browser for permission to notify (from a click, as browsers require).
 * @returns {Promise<boolean>} whether notifications are allowed now
 */
export async function askForNotifications() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  return (await Notification.requestPermission()) === "granted";
}
