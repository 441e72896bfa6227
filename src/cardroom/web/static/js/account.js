/**
 * The Account dialog (docs/protocol.md, "Accounts, profiles and ratings").
 *
 * - A guest makes its name its own, with a password (`claim`) or a passkey
 *   (`passkey_begin`/`passkey_finish`, purpose `register`), or signs in to an account.
 * - Anyone, the name entry too, signs in with a name and password (`sign_in`) or a passkey
 *   (purpose `sign_in`).
 * - An account changes or adds its password, adds a passkey, signs out, or is deleted.
 *
 * The dialog only asks and shows the answers; the page (app.js) keeps the tokens the answers
 * carry and changes screens, through the {@link AccountContext}. A refusal shows the
 * server's own words (a `bad_password` says which rule), a passkey the browser refused says
 * why in plain words (passkey.js).
 *
 * @module account
 */

import { el, plural, profileHref } from "./dom.js";
import { createPasskey, getPasskey, passkeyProblem, passkeysSupported } from "./passkey.js";

/** The password rules, as the server checks them. */
const PASSWORD_RULES = "8 to 128 characters, not your name, and not one of the most common passwords.";

/**
 * What the server says of the player's account (`welcome.account`).
 * @typedef {object} AccountState
 * @property {boolean} registered the name is theirs (a password or a passkey)
 * @property {boolean} password
 * @property {number} passkeys
 */

/**
 * What the dialog needs from the page.
 * @typedef {object} AccountContext
 * @property {(type: string, fields?: object) => Promise<any>} request a request to the room
 * @property {() => ({player_id: string, name: string}|null)} me who plays here (null: nobody)
 * @property {() => AccountState} account
 * @property {(token: string, account: AccountState) => void} onToken an answer rotated the
 *   token (claim, a passkey added, the password changed): keep it
 * @property {(result: object) => void} onSignedIn the answer of a sign-in (`sign_in`, or a
 *   passkey's), with its token; its `welcome` has come already
 * @property {(message: string) => void} onSignedOut the connection is nobody's now (signed
 *   out, or the account deleted): forget the token and say `message`
 */

export class AccountDialog {
  /**
   * @param {HTMLDialogElement} dialog
   * @param {AccountContext} ctx
   */
  constructor(dialog, ctx) {
    this.dialog = dialog;
    this.ctx = ctx;
    this.heading = el("h2", { id: "account-heading" });
    this.status = el("p", { class: "account-status", role: "status", "aria-live": "polite",
      "data-testid": "account-message" });
    this.body = el("div", { class: "account-body" });
    dialog.replaceChildren(this.heading, this.status, this.body,
      el("div", { class: "form-actions" },
        el("button", { type: "button", class: "btn", "data-testid": "account-close", text: "Close",
          on: { click: () => dialog.close() } })));
    dialog.setAttribute("aria-labelledby", "account-heading");
  }

  /**
   * Open the dialog on a view: `sign-in`, or (`auto`) the one that fits the player: saving a
   * guest's name, or the account's settings.
   * @param {"auto"|"sign-in"} [view]
   */
  open(view = "auto") {
    this.show(view);
    if (!this.dialog.open) this.dialog.showModal();
    this.focusFirst();
  }

  /** Put the focus on the view's first field or button (not a hidden one, nor one in a
   * closed disclosure: those cannot take it). */
  focusFirst() {
    for (const candidate of this.body.querySelectorAll("input:not([tabindex='-1']), button, a[href], summary")) {
      candidate.focus();
      if (document.activeElement === candidate) return;
    }
  }

  /** Close the dialog, if open. */
  close() {
    if (this.dialog.open) this.dialog.close();
  }

  /**
   * Draw a view, with a message above it.
   * @param {"auto"|"sign-in"} view
   * @param {string} [message]
   * @param {"ok"|"error"|""} [kind]
   */
  show(view, message = "", kind = "ok") {
    const me = this.ctx.me();
    const account = this.ctx.account();
    if (view === "sign-in" || !me) this.drawSignIn(me, account);
    else if (account.registered) this.drawAccount(me, account);
    else this.drawGuest(me);
    this.say(message, kind);
  }

  /**
   * Say why a request failed. An account whose sign-in is too old to change how it signs in
   * (`bad_credentials`: a token alone may not add a passkey, or delete a passkey-only
   * account) is offered to sign in again on this device.
   * @param {unknown} error
   */
  fail(error) {
    this.say(problem(error), "error");
    const code = /** @type {{code?: string}} */ (error)?.code;
    if (code === "bad_credentials" && this.ctx.account().registered) {
      this.status.append(" ", el("button", { type: "button", class: "link-button", "data-testid": "sign-in-again",
        text: "Sign in again", on: { click: () => this.open("sign-in") } }));
    }
  }

  /**
   * Put a view's parts in the dialog's body (those that are null are left out).
   * @param {...(HTMLElement|null)} parts
   */
  fill(...parts) {
    this.body.replaceChildren(...parts.filter(Boolean));
  }

  /**
   * The line above the view: what just happened, or why it did not.
   * @param {string} message
   * @param {"ok"|"error"|""} kind
   */
  say(message, kind) {
    this.status.textContent = message;
    this.status.dataset.kind = kind;
    this.status.hidden = !message;
  }

  // -- the views -------------------------------------------------------------------------------

  /** A guest: make the name yours with a password or a passkey, or sign in elsewhere. */
  drawGuest(me) {
    this.heading.textContent = "Save your name";
    this.fill(
      el("p", { text: `Make “${me.name}” yours: sign in with it on any device and keep your seats, `
        + "matches and rating there. Nobody else can take the name then." }),
      section("With a password", this.claimForm(me, "Save my name")),
      section("With a passkey",
        el("p", { class: "muted small", text: "Your phone or computer keeps the key and unlocks it "
          + "with your fingerprint, face or screen lock: nothing to remember." }),
        this.passkeyButton("Save my name with a passkey", "claim-passkey", () => this.addPasskey(
          `“${me.name}” is yours: sign in with your passkey on any device.`))),
      el("p", { class: "account-switch" }, "Already have an account? ",
        el("button", { type: "button", class: "link-button", "data-testid": "show-sign-in",
          text: "Sign in", on: { click: () => this.open("sign-in") } })),
    );
  }

  /** Sign in with a name and password, or a passkey. */
  drawSignIn(me, account) {
    this.heading.textContent = "Sign in";
    const leaving = me && !account.registered
      ? el("p", { class: "muted small", text: `You play as the guest “${me.name}”: signing in `
        + "leaves it behind, its seats too. Save its name first to keep it." }) : null;
    const form = el("form", { class: "account-form", "data-testid": "sign-in-form" },
      field("sign-in-name", "name", "Name", { type: "text", autocomplete: "username", required: true,
        maxlength: 24, spellcheck: "false", autocapitalize: "words" }),
      field("sign-in-password", "password", "Password", { type: "password", autocomplete: "current-password",
        required: true }),
      el("div", { class: "form-actions" },
        el("button", { type: "submit", class: "btn btn-primary", "data-testid": "sign-in", text: "Sign in" })));
    onSubmit(form, (data) => this.run(form, async () => {
      const result = await this.ctx.request("sign_in",
        { name: String(data.get("name")).trim(), password: String(data.get("password")) });
      this.ctx.onSignedIn(result);
    }));
    this.fill(
      leaving,
      form,
      el("p", { class: "account-or", text: "or" }),
      this.passkeyButton("Sign in with a passkey", "sign-in-passkey", () => this.signInWithPasskey()),
      me && !account.registered ? el("p", { class: "account-switch" },
        el("button", { type: "button", class: "link-button", text: `Back: save “${me.name}”`,
          on: { click: () => this.open("auto") } })) : null,
    );
  }

  /** An account: its password, its passkeys, signing out and deleting it. */
  drawAccount(me, account) {
    this.heading.textContent = "Your account";
    this.fill(
      el("p", {}, `Signed in as “${me.name}” with ${ways(account)}. `,
        el("a", { href: profileHref(me.player_id), "data-testid": "my-profile", text: "Your profile",
          on: { click: () => this.close() } })),
      account.password
        ? disclosure("Change your password", this.changePasswordForm(me))
        : disclosure("Add a password", this.claimForm(me, "Add the password")),
      section("Passkeys",
        el("p", { class: "muted small", text: account.passkeys
          ? `${plural(account.passkeys, "passkey", "passkeys")}. Add one for each phone or computer you play on.`
          : "None yet. A passkey signs you in with your fingerprint, face or screen lock." }),
        this.passkeyButton("Add a passkey", "add-passkey", () => this.addPasskey("Passkey added."))),
      section("Sign out",
        el("p", { class: "muted small", text: "This device forgets you until you sign in again; "
          + "your seats stay yours." }),
        this.actionButton("Sign out", "sign-out", async () => {
          await this.ctx.request("sign_out");
          this.close();
          this.ctx.onSignedOut("You are signed out.");
        })),
      disclosure("Delete your account", this.deleteForm(me, account), "account-danger"),
    );
  }

  // -- forms -----------------------------------------------------------------------------------

  /** Make the name the player's with a password (`claim`): a guest's, or a passkey account's. */
  claimForm(me, buttonText) {
    const form = el("form", { class: "account-form", "data-testid": "claim-form" },
      usernameField(me),
      field("account-password", "password", "Password", { type: "password", autocomplete: "new-password",
        required: true, "aria-describedby": "account-password-rules" }),
      field("account-password-repeat", "password_repeat", "Repeat the password", { type: "password",
        autocomplete: "new-password", required: true }),
      el("p", { class: "muted small", id: "account-password-rules", text: PASSWORD_RULES }),
      el("div", { class: "form-actions" },
        el("button", { type: "submit", class: "btn btn-primary", "data-testid": "claim-password", text: buttonText })));
    onSubmit(form, (data) => this.run(form, async () => {
      const password = repeated(data, "password", "password_repeat");
      const { token } = await this.ctx.request("claim", { password });
      this.ctx.onToken(token, { ...this.ctx.account(), registered: true, password: true });
      this.show("auto", `“${me.name}” is yours: sign in with it and your password on any device.`);
    }));
    return form;
  }

  /** Change the password (`change_password`): every other device is signed out. */
  changePasswordForm(me) {
    const form = el("form", { class: "account-form", "data-testid": "change-password-form" },
      usernameField(me),
      field("old-password", "old_password", "Current password", { type: "password", autocomplete: "current-password",
        required: true }),
      field("new-password", "new_password", "New password", { type: "password", autocomplete: "new-password",
        required: true, "aria-describedby": "new-password-rules" }),
      field("new-password-repeat", "new_password_repeat", "Repeat the new password", { type: "password",
        autocomplete: "new-password", required: true }),
      el("p", { class: "muted small", id: "new-password-rules", text: `${PASSWORD_RULES} `
        + "Your other devices are signed out, and your passkeys removed: add this device's again." }),
      el("div", { class: "form-actions" },
        el("button", { type: "submit", class: "btn btn-primary", "data-testid": "change-password",
          text: "Change password" })));
    onSubmit(form, (data) => this.run(form, async () => {
      const password = repeated(data, "new_password", "new_password_repeat");
      const { token } = await this.ctx.request("change_password",
        { old_password: String(data.get("old_password")), new_password: password });
      // The server drops every passkey with the old password (one somebody else added, too).
      this.ctx.onToken(token, { ...this.ctx.account(), passkeys: 0 });
      this.show("auto", "Password changed. Your other devices are signed out and your passkeys "
        + "removed: add this device's again.");
    }));
    return form;
  }

  /** Delete the account (`delete_account`), confirmed by the name and the password. */
  deleteForm(me, account) {
    const form = el("form", { class: "account-form", "data-testid": "delete-form" },
      el("p", { class: "small", text: "You are signed out everywhere and leave the seats you can "
        + "leave; your name becomes free for anyone. Your matches stay in the tables' records, "
        + "under “Deleted player”. This cannot be undone." }),
      field("delete-name", "confirm_name", `Type your name, ${me.name}, to confirm`, { type: "text",
        autocomplete: "off", required: true, spellcheck: "false" }),
      account.password ? field("delete-password", "password", "Your password", { type: "password",
        autocomplete: "current-password", required: true }) : null,
      el("div", { class: "form-actions" },
        el("button", { type: "submit", class: "btn btn-danger", "data-testid": "delete-account",
          text: "Delete my account" })));
    onSubmit(form, (data) => this.run(form, async () => {
      const fields = { confirm_name: String(data.get("confirm_name")).trim() };
      if (account.password) fields.password = String(data.get("password"));
      await this.ctx.request("delete_account", fields);
      this.close();
      this.ctx.onSignedOut(`The account “${me.name}” is deleted.`);
    }));
    return form;
  }

  // -- passkeys --------------------------------------------------------------------------------

  /**
   * A passkey's button, or where this browser cannot use passkeys here, the button disabled
   * and the reason under it.
   */
  passkeyButton(text, testid, action) {
    if (passkeysSupported()) return this.actionButton(text, testid, action);
    return el("div", { class: "account-passkey" },
      el("button", { type: "button", class: "btn", "data-testid": testid, text, disabled: true }),
      el("p", { class: "muted small", text: "This browser cannot use passkeys on this page "
        + "(they need a recent browser and a secure address)." }));
  }

  /** Register a passkey for this player: a guest's name becomes theirs, an account adds one. */
  async addPasskey(message) {
    const { options } = await this.ctx.request("passkey_begin", { purpose: "register" });
    const credential = await createPasskey(options);
    const { token } = await this.ctx.request("passkey_finish", { purpose: "register", credential });
    const account = this.ctx.account();
    this.ctx.onToken(token, { ...account, registered: true, passkeys: account.passkeys + 1 });
    this.show("auto", message);
  }

  /** Sign in with a passkey the device holds (it offers its accounts: no name is asked). */
  async signInWithPasskey() {
    const { options } = await this.ctx.request("passkey_begin", { purpose: "sign_in" });
    const credential = await getPasskey(options);
    const result = await this.ctx.request("passkey_finish", { purpose: "sign_in", credential });
    this.ctx.onSignedIn(result);
  }

  // -- running a request -----------------------------------------------------------------------

  /** A button that runs `action` (its failure shown above the view). */
  actionButton(text, testid, action) {
    const button = el("button", { type: "button", class: "btn", "data-testid": testid, text });
    button.addEventListener("click", () => this.run(button, action));
    return button;
  }

  /**
   * Run a request with the buttons of `element` disabled meanwhile; show why it failed.
   * @param {HTMLElement} element a form, or a button
   * @param {() => Promise<void>} action
   */
  async run(element, action) {
    const buttons = element.matches("button") ? [element] : [...element.querySelectorAll("button")];
    for (const button of buttons) button.disabled = true;
    this.say("", "");
    try {
      await action();
    } catch (error) {
      this.fail(error);
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }
}

/**
 * Why a request failed, in words: the server's message, the browser's passkey refusal, or
 * the page's own check.
 * @param {unknown} error
 * @returns {string}
 */
function problem(error) {
  if (error instanceof DOMException) return passkeyProblem(error);
  return /** @type {{message?: string}} */ (error)?.message || String(error);
}

/**
 * The password typed twice, or an error when the two differ.
 * @param {FormData} data
 * @param {string} name the first field's name
 * @param {string} repeatName the second field's name
 * @returns {string}
 */
function repeated(data, name, repeatName) {
  const password = String(data.get(name));
  if (password !== String(data.get(repeatName))) {
    throw new Error("The two passwords are not the same: type the new password twice.");
  }
  return password;
}

/**
 * Call `handler` with the form's data on submit (the page does not reload).
 * @param {HTMLFormElement} form
 * @param {(data: FormData) => void} handler
 */
function onSubmit(form, handler) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    handler(new FormData(form));
  });
}

/**
 * A labelled input.
 * @param {string} id
 * @param {string} name its name in the form's data
 * @param {string} label
 * @param {object} attrs the input's other attributes
 */
function field(id, name, label, attrs) {
  return el("div", { class: "field" },
    el("label", { for: id, text: label }),
    el("input", { id, name, ...attrs }));
}

/** The name, for password managers to save with the password (not shown). */
function usernameField(me) {
  return el("input", { type: "text", class: "visually-hidden", autocomplete: "username",
    value: me.name, readonly: true, tabindex: "-1", "aria-hidden": "true" });
}

/** A titled part of a view. */
function section(title, ...children) {
  return el("section", { class: "account-section" }, el("h3", { text: title }), ...children);
}

/** A part of a view that opens on demand (its title is the button). */
function disclosure(title, content, className = "") {
  return el("details", { class: `account-section account-details ${className}`.trim() },
    el("summary", { text: title }), content);
}

/** How an account signs in: "a password and 2 passkeys". */
function ways(account) {
  const parts = [];
  if (account.password) parts.push("a password");
  if (account.passkeys) parts.push(plural(account.passkeys, "passkey", "passkeys"));
  return parts.join(" and ") || "no way to sign in";
}
