/**
 * "Report a bug" (seed 004 section 5): a dialog with a text box that sends `report_bug`
 * with the table and the client's own state, so a report can be matched to what the page
 * showed. The server takes one report per connection, as seed 004 takes one per visit: after
 * a report the dialog thanks the player and says to refresh to send another.
 *
 * The dialog itself (`#bug-dialog`, holding `#bug-text`, `[data-testid=bug-send]` and
 * `#bug-result`) is in index.html.
 *
 * @module bug
 */

/**
 * What the dialog needs from the page.
 * @typedef {object} BugContext
 * @property {{request: (type: string, fields: object) => Promise<object>}} room
 * @property {string|null} tableId the table shown, if any
 * @property {() => object} clientState what the page shows now (screen, version, …)
 */

/** Set once a report has been accepted (seed 004: one per visit). */
let sent = false;

/** The context of the latest opening, used by the send handler wired once. */
let current = null;

/**
 * Open the bug report dialog.
 * @param {BugContext} ctx
 */
export function openBugDialog(ctx) {
  current = ctx;
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("bug-dialog"));
  if (!dialog.dataset.wired) wire(dialog);
  const text = /** @type {HTMLTextAreaElement} */ (dialog.querySelector("#bug-text"));
  if (!sent) setResult(dialog, "", "");
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  text.focus();
}

/** Hook up the send and close controls (once). */
function wire(dialog) {
  dialog.dataset.wired = "1";
  const form = dialog.querySelector("form");
  const text = dialog.querySelector("#bug-text");
  const send = dialog.querySelector("[data-testid=bug-send]");
  dialog.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const description = text.value.trim();
    if (!description) {
      setResult(dialog, "Please describe what went wrong first.", "error");
      text.focus();
      return;
    }
    send.disabled = true;
    setResult(dialog, "Sending…", "");
    try {
      const result = await current.room.request("report_bug", {
        description: description.slice(0, 4000),
        table_id: current.tableId || null,
        client_state: safeState(current.clientState),
      });
      sent = true;
      text.value = "";
      text.disabled = true;
      setResult(dialog, `Thank you! Your report is number ${result.bug}. To send another, refresh the page.`, "ok");
    } catch (error) {
      send.disabled = false;
      setResult(dialog, error.message || "The report could not be sent.", "error");
    }
  });
}

/** The client's state, never letting a failure in gathering it stop the report. */
function safeState(getState) {
  try {
    return getState() || {};
  } catch (error) {
    return { error: String(error) };
  }
}

/**
 * Show the outcome in the dialog (`role=status`, so screen readers hear it).
 * @param {HTMLDialogElement} dialog
 * @param {string} message
 * @param {""|"ok"|"error"} kind
 */
function setResult(dialog, message, kind) {
  const result = dialog.querySelector("#bug-result");
  result.textContent = message;
  result.dataset.kind = kind;
}
