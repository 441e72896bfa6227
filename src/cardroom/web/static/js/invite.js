/**
 * The creator's "Invite friends" dialog: make the table friends only (out of the lobby, and
 * no stranger takes a bot's seat over), copy, renew or revoke its invite link, choose which
 * side the link seats a friend on, keep empty seats for friends, and turn typed chat off.
 *
 * Everything here is a request the server checks (only the creator may); the dialog only
 * draws the table's latest message. The link is `/#table=ID&invite=SECRET`: the secret is in
 * the hash, which browsers never send (app.js keeps it and clears it from the address bar).
 *
 * @module invite
 */

import { el } from "./dom.js";

/** Names of the sides, as the lobby's seat picker calls them. */
const SIDE_NAMES = ["Team One", "Team Two", "Team Three"];

/**
 * The invite link of a table.
 * @param {string} tableId
 * @param {string} secret
 */
export function inviteLink(tableId, secret) {
  return `${location.origin}/#table=${encodeURIComponent(tableId)}&invite=${encodeURIComponent(secret)}`;
}

export class InviteDialog {
  /**
   * @param {HTMLDialogElement} dialog
   * @param {{request: (type: string, fields: object) => Promise<any>,
   *          notify: (message: string, kind?: string) => void}} ctx
   */
  constructor(dialog, ctx) {
    this.dialog = dialog;
    this.ctx = ctx;
    this.message = null;
    this.body = el("div", { class: "invite-body" });
    dialog.replaceChildren(el("form", { method: "dialog", class: "invite-form" },
      el("h2", { id: "invite-heading", text: "Invite friends" }),
      this.body,
      el("div", { class: "form-actions" },
        el("button", { type: "submit", class: "btn", "data-testid": "invite-close", text: "Close" }))));
    dialog.setAttribute("aria-labelledby", "invite-heading");
  }

  /** @param {object} message the table's latest message (ours: we are its creator) */
  open(message) {
    this.update(message);
    if (!this.dialog.open) this.dialog.showModal();
  }

  /** Redraw from the table's latest message, if the dialog is open or opening. */
  update(message) {
    this.message = message;
    const id = message.table_id;
    const change = (fields) => this.request("table_settings", { table_id: id, ...fields });
    const check = (name, label, checked, help, onChange) => el("div", { class: "field field-check" },
      el("label", { for: `invite-${name}` },
        el("input", { type: "checkbox", id: `invite-${name}`, checked, "data-testid": `invite-${name}`,
          on: { change: (event) => onChange(event.target.checked) } }), ` ${label}`),
      el("p", { class: "muted small", text: help }));
    const link = message.invite ? inviteLink(id, message.invite) : "";
    const linkField = el("input", { type: "text", readonly: true, id: "invite-link", value: link,
      "data-testid": "invite-link", "aria-label": "Invite link", placeholder: "No link yet" });
    const sides = sideChoices(message);
    this.body.replaceChildren(
      check("private", "Friends only", message.private,
        "Not listed in the lobby: only people with the link can watch or sit, and nobody else takes over a bot.",
        (on) => change({ private: on })),
      el("div", { class: "field" },
        el("label", { for: "invite-link", text: "Invite link" }),
        el("div", { class: "invite-link-row" }, linkField,
          el("button", { type: "button", class: "btn btn-small btn-primary", "data-testid": "invite-copy",
            text: "Copy", disabled: !link, on: { click: () => this.copy(linkField) } })),
        el("div", { class: "invite-link-row" },
          el("button", { type: "button", class: "btn btn-small", "data-testid": "invite-new",
            text: link ? "New link" : "Make a link",
            on: { click: () => this.request("invite", { table_id: id }) } }),
          el("button", { type: "button", class: "btn btn-small", "data-testid": "invite-revoke",
            text: "Revoke link", disabled: !link,
            on: { click: () => this.request("invite", { table_id: id, revoke: true }) } }))),
      sides.length > 1 ? el("div", { class: "field" },
        el("label", { for: "invite-side", text: "The link seats a friend" }),
        el("select", { id: "invite-side", "data-testid": "invite-side",
          on: { change: (event) => change({ invite_side: Number(event.target.value) }) } },
        el("option", { value: "-1", text: "in any free seat", selected: message.invite_side == null }),
        ...sides.map(([n, name]) => el("option", { value: String(n), text: `in ${name}`,
          selected: message.invite_side === n })))) : null,
      reservedSeats(message, (seat, reserved) =>
        this.request("reserve_seat", { table_id: id, seat, reserved })),
      check("typed-chat", "Typed chat", message.typed_chat !== false,
        "Off: players can only use the quick phrases and reactions.",
        (on) => change({ typed_chat: on })),
    );
  }

  /** Send a request; its error is shown, the next table message redraws the dialog. */
  async request(type, fields) {
    try {
      await this.ctx.request(type, fields);
    } catch (error) {
      if (error?.message) this.ctx.notify(error.message);
    }
  }

  /** Copy the link (or select it, where the clipboard is not allowed). */
  async copy(field) {
    try {
      await navigator.clipboard.writeText(field.value);
      this.ctx.notify("Invite link copied: send it to your friends.", "info");
    } catch {
      field.select();
      this.ctx.notify("Select and copy the link to send it.", "info");
    }
  }
}

/**
 * The sides a link may seat a friend on, `[index, name]`, where a table has partnerships.
 * @param {object} message
 * @returns {Array<[number, string]>}
 */
function sideChoices(message) {
  const teams = message.teams;
  if (!Array.isArray(teams) || !teams.every((team) => team.length > 1)) return [];
  return teams.map((_, n) => [n, SIDE_NAMES[n] || `Team ${n + 1}`]);
}

/**
 * "Keep for a friend" boxes for the empty (or kept) seats of a waiting table.
 * @param {object} message
 * @param {(seat: number, reserved: boolean) => void} onChange
 */
function reservedSeats(message, onChange) {
  if (message.status !== "waiting") return null;
  const seats = message.seats.filter((seat) => !seat.name && !seat.bot);
  if (!seats.length) return null;
  return el("fieldset", { class: "invite-seats" },
    el("legend", { text: "Keep seats for friends" }),
    ...seats.map((seat) => el("label", { class: "seat-choice" },
      el("input", { type: "checkbox", checked: seat.reserved, "data-testid": `reserve-${seat.seat}`,
        on: { change: (event) => onChange(seat.seat, event.target.checked) } }),
      el("span", { text: `Seat ${seat.seat + 1}` }))));
}
