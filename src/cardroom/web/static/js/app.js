/**
 * The page's entry point: chooses the screen (name entry, lobby, table, a player's profile,
 * a leaderboard) and wires the modules together around one {@link Room} connection.
 *
 * - A stored token says `hello`; without one (or when the server no longer knows it) the
 *   name entry is shown, prefilled with the remembered name (seed 004 section 1), with a way
 *   to sign in to an account instead.
 * - The URL keeps `#table=ID` while a table is shown, `#lobby` in the lobby, `#player=ID` on a
 *   profile, `#leaderboard=GAME` on a leaderboard and `#challenge=GAME` on the daily
 *   challenge, so a refresh (or the browser's Back button) returns to the same place. With none, a player who sits at a table goes straight
 *   back to it. A profile opened from a table keeps following the table, so going back to it
 *   is instant.
 * - The Account dialog (account.js) saves a guest's name, signs in and out; every answer
 *   that carries a token replaces the stored one, and a sign-in starts over as a `hello` does.
 * - The daily challenge (challenge.js) seats the player at a table of their own: this browser
 *   remembers which tables are challenge entries' (the table message does not say), to hide
 *   what such a table refuses (Leave, Invite) and, after its last deal, to lead to the result.
 * - The table is drawn by table.js's `TableView`, loaded on demand so the rest of the page
 *   still works if it fails to load.
 *
 * @module app
 */

import { load, save } from "./storage.js";
import { Room, socketUrl } from "./net.js";
import { renderLobby, clearLobby, mergeLobby, presetTitle, timerText } from "./lobby.js";
import { renderScores } from "./scores.js";
import { renderOptions, playSound } from "./options.js";
import { openBugDialog } from "./bug.js";
import { el } from "./dom.js";
import { TABLE_MODULES } from "./table_games.js";
import { ChatPanel } from "./chat.js";
import { InviteDialog } from "./invite.js";
import { Attention } from "./attention.js";
import { AccountDialog } from "./account.js";
import { showProfile } from "./profile.js";
import { showLeaderboard } from "./leaderboard.js";
import { closeReplay, parseReplay, showReplay } from "./replay.js";
import { CHALLENGE_DEALS, challengeHref, parseChallenge, showChallenge } from "./challenge.js";
import { OFFLINE_TEXT, checkForNewClient, registerWorker } from "./offline.js";

const stored = load();

/** The account of a player who has not made their name theirs. */
const GUEST = Object.freeze({ registered: false, password: false, passkeys: 0 });

/** The live options object: the table view holds the same reference. */
const options = { cardBack: stored.cardBack, scoreMode: stored.scoreMode, sound: stored.sound,
  spectatorChat: stored.spectatorChat, notifications: stored.notifications,
  fourColour: stored.fourColour };

/** Everything the page knows, in one place. */
const state = {
  /** @type {"loading"|"name"|"lobby"|"table"|"profile"|"leaderboard"|"replay"|"challenge"} */
  screen: "loading",
  /** @type {{player_id: string, name: string}|null} */
  me: null,
  /** What the server says of the player's account (`welcome.account`). */
  account: { ...GUEST },
  /** Tables where this player sits (welcome, joins, creations, table messages). */
  myTables: new Set(),
  /** Table id → creator's player id, learnt from table messages. */
  creators: new Map(),
  /** The latest lobby message. */
  lobby: null,
  /** The table shown, if any. */
  tableId: null,
  /** Table id → latest table message (a table message may arrive before its request's ack). */
  tables: new Map(),
  /** The table's view object from table.js (thousand.js for 1000), and its game. */
  tableView: null,
  tableGame: null,
  /** Set by the first welcome: later welcomes come from reconnections and change no screen. */
  started: false,
};

const room = new Room(socketUrl());
const $ = (selector) => document.querySelector(selector);

/** The chat of the table shown, in the side panel. */
const chat = new ChatPanel($("#chat-root"), {
  say: (line) => room.request("chat", { table_id: state.tableId, ...line }),
  notify: (message) => notify(message),
  me: () => state.me,
  onUnread: (count) => {
    const badge = $("#chat-unread");
    badge.hidden = !count;
    badge.textContent = count ? String(count) : "";
  },
});

/** The creator's sharing dialog. */
const inviteDialog = new InviteDialog(/** @type {HTMLDialogElement} */ ($("#invite-dialog")), {
  request: (type, fields) => room.request(type, fields),
  notify: (message, kind) => notify(message, kind),
});

/** The Account dialog: saving a guest's name, signing in and out, passwords and passkeys. */
const accountDialog = new AccountDialog(/** @type {HTMLDialogElement} */ ($("#account-dialog")), {
  request: (type, fields) => room.request(type, fields),
  me: () => state.me,
  account: () => state.account,
  onToken(token, account) {
    keepToken(token);
    state.account = account;
    drawAccountButton();
  },
  onSignedIn(result) {
    keepToken(result.token);
    save({ name: result.name });
    if (result.account) state.account = result.account;
    drawAccountButton();
    accountDialog.close();
    notify(`Signed in as ${result.name}.`, "info");
  },
  onSignedOut(message) {
    forgetPlayer();
    notify(message, "info");
  },
});

/** The turn's call in a background tab. */
const attention = new Attention({ notifications: () => options.notifications });

/** Whether the chat is on screen now (a wide screen shows the panel; a phone, when open). */
function chatInView() {
  return state.screen === "table" && !document.hidden
    && (wide.matches || document.body.classList.contains("panel-open"));
}

// -- notices ---------------------------------------------------------------------------------

/**
 * Show a dismissible message in the notice region (`[data-testid=notice]`, aria-live), the
 * page's replacement for `alert()`: request errors, illegal moves, connection news.
 * @param {string} message
 * @param {"error"|"info"} [kind]
 */
export function notify(message, kind = "error") {
  const region = $("[data-testid=notice]");
  // table.js may have written plain text here and hidden the region: take it back.
  region.hidden = false;
  for (const node of [...region.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE || node.dataset?.message === message) node.remove();
  }
  const toast = el("div", { class: `toast toast-${kind}`, dataset: { message } },
    el("span", { class: "toast-text", text: message }),
    el("button", { type: "button", class: "toast-close", "aria-label": "Dismiss", text: "×",
      on: { click: () => toast.remove() } }));
  region.append(toast);
  while (region.children.length > 3) region.firstElementChild.remove();
  setTimeout(() => toast.remove(), kind === "error" ? 10000 : 5000);
}

/** Show a request's error and pass it on (so callers can still react to it). */
function reportError(error) {
  if (error?.message) notify(error.message);
  throw error;
}

// -- screens and routing ---------------------------------------------------------------------

/** @param {"loading"|"name"|"lobby"|"table"|"profile"|"leaderboard"|"replay"|"challenge"} screen */
function showScreen(screen) {
  state.screen = screen;
  document.body.dataset.screen = screen;
  for (const section of document.querySelectorAll(".screen")) {
    section.hidden = section.dataset.screen !== screen;
  }
  if (screen !== "table") closePanel();
  if (screen !== "replay") closeReplay();
  if (screen !== "lobby") clearLobby($("#lobby-root"));
}

/**
 * What the URL's hash asks for: `#table=ID` (with `&invite=SECRET` from a private table's
 * link, remembered for that table), `#player=ID`, `#leaderboard=GAME` (`&offset=N`) or
 * `#lobby`, or `#challenge=GAME` (`&day=YYYY-MM-DD`).
 * @returns {{table?: string, player?: string, leaderboard?: string, offset?: number, lobby?: boolean,
 *   challenge?: {game: string, day: string|null}}}
 */
function parseHash() {
  const hash = location.hash.replace(/^#/, "");
  const params = new URLSearchParams(hash);
  const table = params.get("table");
  if (table) {
    const invite = params.get("invite");
    if (invite) {
      // Kept by this browser for the table; the address bar shows the table alone, so the
      // secret is not left on screen or in the history for anyone looking over a shoulder.
      save({ invites: { ...load().invites, [table]: invite } });
      history.replaceState(null, "", `#table=${encodeURIComponent(table)}`);
    }
    return { table };
  }
  const replay = parseReplay(params);
  if (replay) return { replay };
  if (params.get("player")) return { player: params.get("player") };
  const challenge = parseChallenge(params, hash);
  if (challenge) return { challenge };
  if (params.get("leaderboard")) {
    return { leaderboard: params.get("leaderboard"), offset: Math.max(0, Number(params.get("offset")) || 0) };
  }
  if (hash === "lobby") return { lobby: true };
  return {};
}

/**
 * The invite secret this browser holds for a private table (from its link), if any.
 * @param {string} tableId
 * @returns {string|null}
 */
function inviteFor(tableId) {
  return load().invites[tableId] || null;
}

/**
 * Go to `#table=ID` or `#lobby`. Changing the hash adds a history entry, and the
 * `hashchange` handler shows the screen, so the Back button works the same way.
 * @param {string} hash
 */
function goTo(hash) {
  if (location.hash.replace(/^#/, "") === hash) route();
  else location.hash = hash;
}

/** Show what the hash asks for (once we know who we are). */
function route() {
  if (!state.me) return;
  const wanted = parseHash();
  if (wanted.table) openTable(wanted.table);
  else if (wanted.replay) {
    showScreen("replay");
    showReplay($("#replay-root"), wanted.replay, { ...playersContext, options });
  } else if (wanted.player) {
    showScreen("profile");
    showProfile($("#profile-root"), wanted.player, playersContext);
  } else if (wanted.challenge) {
    showScreen("challenge");
    showChallenge($("#challenge-root"), wanted.challenge, playersContext);
  } else if (wanted.leaderboard) {
    showScreen("leaderboard");
    showLeaderboard($("#leaderboard-root"), wanted.leaderboard, wanted.offset, playersContext);
  } else showLobby();
}

/** @type {import("./challenge.js").ChallengeContext} */
const playersContext = {
  me: () => state.me,
  // (Not a challenge table whose last deal is over: it has closed.)
  table: () => (state.tableView && !challengeDone(state.tables.get(state.tableId)) ? state.tableId : null),
  playChallenge,
  challengeTable: rememberChallenge,
};

// -- the daily challenge ---------------------------------------------------------------------

/**
 * Play today's challenge of `game`: the entry's table (a new one with its first deal, or
 * where the player stopped) is shown.
 * @param {string} game
 */
async function playChallenge(game) {
  const result = await room.request("daily_challenge", { game }).catch(reportError);
  rememberChallenge(result.table_id, game);
  if (result.seat != null) state.myTables.add(result.table_id);
  goTo(`table=${result.table_id}`);
}

/**
 * Remember that a table is a daily challenge entry's (its table messages say so too, but the
 * page may show it before the first one): its player neither leaves it nor shares it, and its
 * last deal ends it.
 * @param {string} tableId
 * @param {string} game
 */
function rememberChallenge(tableId, game) {
  if (load().challenges[tableId] !== game) save({ challenges: { ...load().challenges, [tableId]: game } });
}

/** The game of the challenge whose entry's table this is, or null for an ordinary table. */
function challengeOf(tableId) {
  if (!tableId) return null;
  return state.tables.get(tableId)?.challenge?.game || load().challenges[tableId] || null;
}

/** How many deals a challenge table plays (its message says; the game's usual number until). */
function challengeDeals(tableId) {
  return state.tables.get(tableId)?.challenge?.deals || CHALLENGE_DEALS[challengeOf(tableId)] || 0;
}

/** A challenge table's last deal is over (it closes): the result is on the challenge screen. */
function challengeDone(message) {
  const game = challengeOf(message?.table_id);
  const deals = challengeDeals(message?.table_id);
  return Boolean(game && deals && message.match_number >= deals && message.status !== "playing");
}

function showNameEntry() {
  state.me = null;
  state.account = { ...GUEST };
  drawAccountButton();
  showScreen("name");
  const input = $("#name-input");
  input.value = load().name || input.value;
  input.focus();
}

// -- lobby -----------------------------------------------------------------------------------

function showLobby() {
  if (state.tableId) {
    room.unfollow();
    state.tableId = null;
    destroyTableView();
  }
  showScreen("lobby");
  drawLobby();
}

/** Draw the lobby if it is the screen shown (a hidden lobby is kept empty: see clearLobby). */
function drawLobby() {
  if (state.lobby && state.screen === "lobby") renderLobby($("#lobby-root"), state.lobby, lobbyContext);
}

/** Whether this player created a table: from its table messages, else from this browser. */
function isCreator(tableId) {
  if (state.creators.has(tableId)) return state.creators.get(tableId) === state.me?.player_id;
  return load().created.includes(tableId);
}

/** @type {import("./lobby.js").LobbyContext} */
const lobbyContext = {
  get myTables() { return state.myTables; },
  isCreator,
  async join(tableId, seat) {
    await room.request("join", { table_id: tableId, seat }).catch(reportError);
    state.myTables.add(tableId);
    goTo(`table=${tableId}`);
  },
  async reconnect(tableId) { goTo(`table=${tableId}`); },
  async watch(tableId) { goTo(`table=${tableId}`); },
  async addBot(tableId, seat) {
    await room.request("add_bot", { table_id: tableId, seat }).catch(reportError);
  },
  async startWithBots(tableId) {
    await room.request("start_with_bots", { table_id: tableId }).catch(reportError);
    goTo(`table=${tableId}`);
  },
  async playNow(game, preset) {
    const result = await room.request("play_now", { game, preset }).catch(reportError);
    save({ lastPreset: { ...load().lastPreset, [game]: preset } });
    if (result.seat != null) state.myTables.add(result.table_id);
    goTo(`table=${result.table_id}`);
  },
  lastPreset: (game) => load().lastPreset[game] || null,
  me: () => state.me,
  async create(request) {
    const result = await room.request("create_table", request).catch(reportError);
    save({ created: [...load().created, result.table_id],
      lastPreset: { ...load().lastPreset, [request.game]: request.preset } });
    state.myTables.add(result.table_id);
    goTo(`table=${result.table_id}`);
  },
};

// -- table -----------------------------------------------------------------------------------

/** Each game's table module by game name, loaded once on first use (a failed load is tried
 * again next time): each game's module (table_games.js names them) draws its table. */
const tableModules = new Map();

/** The game a table plays, from its latest message or its lobby row (500 if unknown yet). */
function gameOf(tableId) {
  const latest = state.tables.get(tableId);
  const row = state.lobby?.tables?.find((table) => table.table_id === tableId);
  return latest?.game || latest?.view?.game || row?.game || "500";
}

/**
 * Show a table: follow it on the server and draw it.
 * @param {string} tableId
 */
async function openTable(tableId) {
  if (state.tableId === tableId && state.screen === "table") return;
  if (state.tableId === tableId && state.tableView) {
    // Back from a profile: the table was followed and drawn all along.
    showScreen("table");
    return;
  }
  state.tableId = tableId;
  showScreen("table");
  drawToolbar(state.tables.get(tableId) || null);
  drawScores(state.tables.get(tableId) || null);
  mountTableView(tableId);
  chat.setTable(tableId, state.tables.get(tableId) || null);
  await followTable(tableId);
}

/** Follow the table on the server; a table between servers (`reconnecting`) is asked for
 * again in a moment, as long as it is still the one shown. */
async function followTable(tableId) {
  try {
    const result = await room.follow(tableId, inviteFor(tableId));
    if (result.seat != null) state.myTables.add(tableId);
  } catch (error) {
    if (error.code === "offline") return; // the reconnection opens it again
    notify(error.message);
    if (error.code === "reconnecting") {
      setTimeout(() => { if (state.tableId === tableId) followTable(tableId); }, 1500);
    }
    if (error.code === "no_such_table") {
      state.myTables.delete(tableId);
      goTo("lobby");
    }
  }
}

/** Create the TableView for `tableId` in `#table-root`, or explain why it cannot be drawn. */
async function mountTableView(tableId) {
  destroyTableView();
  const root = $("#table-root");
  root.replaceChildren(el("p", { class: "table-loading muted", text: "Laying out the table…" }));
  const game = gameOf(tableId);
  const [path, className] = TABLE_MODULES[game] || TABLE_MODULES[500];
  let module;
  try {
    if (!tableModules.has(path)) tableModules.set(path, import(path));
    module = await tableModules.get(path);
  } catch (error) {
    tableModules.delete(path);
    if (state.tableId !== tableId) return;
    root.replaceChildren(el("div", { class: "table-missing", "data-testid": "status", role: "status" },
      el("strong", { text: "The table cannot be drawn. " }),
      `Its code (${path.slice(2)}) failed to load: ${error.message}. Refresh to try again.`));
    return;
  }
  if (state.tableId !== tableId) return; // the player moved on while it loaded
  // The table's first message may have come while the module loaded and named another game.
  if (gameOf(tableId) !== game) return mountTableView(tableId);
  root.replaceChildren();
  state.tableView = new module[className](root, tableContext(tableId));
  state.tableGame = game;
  const latest = state.tables.get(tableId);
  if (latest) state.tableView.update(latest);
  drawScores(latest || null); // now with the sides the game's widgets know
}

function destroyTableView() {
  state.tableView?.destroy?.();
  state.tableView = null;
  state.tableGame = null;
}

/**
 * What the table view may use. `send` rejects with the server's `{code, message}`; the view
 * shows the message (in `[data-testid=notice]`, or with `notify`). `onLeave` leaves the
 * table: it gives up the seat while seats may change, and returns to the lobby.
 * @param {string} tableId
 */
function tableContext(tableId) {
  return {
    send: (action) => room.request("act", { table_id: tableId, action }),
    hint: () => room.request("hint", { table_id: tableId }),
    me: { player_id: state.me.player_id, name: state.me.name },
    options,
    rulesLink: `/rules/table/${tableId}${inviteFor(tableId) ? `?invite=${encodeURIComponent(inviteFor(tableId))}` : ""}`,
    onLeave: leaveTable,
    notify,
    challenge: challengeOf(tableId) ? { game: challengeOf(tableId), deals: challengeDeals(tableId) } : null,
  };
}

/**
 * A `table` message: remember it, learn who sits and who created it, and redraw if shown.
 * @param {object} message
 */
function onTable(message) {
  const id = message.table_id;
  const previous = state.tables.get(id);
  if (previous && previous.version > message.version) return; // stale
  state.tables.set(id, message);
  if (message.creator) state.creators.set(id, message.creator);
  if (message.challenge) rememberChallenge(id, message.challenge.game);
  if (message.seat != null) state.myTables.add(id);
  if (id !== state.tableId) return;
  if (state.tableView && state.tableGame !== gameOf(id)) mountTableView(id); // drawn for the wrong game
  else state.tableView?.update(message);
  drawScores(message);
  drawToolbar(message);
  chat.setTable(id, message);
  attention.update(message);
  if (inviteDialog.dialog.open) {
    if (message.invite !== undefined && isCreatorSeat(message)) inviteDialog.update(message);
    else inviteDialog.dialog.close();
  }
  // table.js clicks for our own plays (after the ack); here the others' plays click too.
  if (previous && message.events?.some((event) => event.type === "play" && event.seat !== message.seat)) {
    playSound("play");
  }
}

/** The score panel for a table message, with the sides the table's game widgets give. */
function drawScores(message) {
  const game = message && state.tableGame === gameOf(message.table_id) ? state.tableView?.game : null;
  renderScores($("#scores-root"), message, options.scoreMode, game);
}

/**
 * The bar above the table: which table this is, whether we only watch, and for the creator
 * of a table still waiting for players, "Start with bots".
 */
function drawToolbar(message) {
  const game = gameOf(state.tableId);
  const preset = message?.view ? presetTitle(game, message.view.preset) : null;
  const challenge = challengeOf(state.tableId);
  const parts = challenge ? [`Daily challenge · ${game}`] : [preset ? `${game} · ${preset}` : game, `table ${state.tableId}`];
  if (challenge && message?.match_number) {
    parts.push(`deal ${message.match_number} of ${challengeDeals(state.tableId) || "?"}`);
  } else if (message?.match_number) parts.push(`match ${message.match_number}`);
  if (message && !challenge) parts.push(message.hints ? "casual: hints allowed" : "no hints");
  if (message && !challenge) parts.push(timerText(message.turn_seconds));
  if (message?.bot_word) parts.push(`${message.bot_word} bots`);
  if (message?.private && !challenge) parts.push("friends only");
  if (message?.rated === false) parts.push("unrated");
  $("#table-title").textContent = parts.join(" · ");
  $("#spectating").hidden = !message || message.seat != null;
  const freeSeats = message?.seats?.filter((seat) => !seat.name && !seat.bot).length ?? 0;
  $("#table-start-bots").hidden = !(message && message.status === "waiting" && freeSeats > 0
    && state.me && message.creator === state.me.player_id);
  $("#table-invite").hidden = Boolean(challenge) || !(message && isCreatorSeat(message));
  $("#chat-toggle").hidden = Boolean(challenge); // nobody else sits or watches there
  drawChallengeLink(message, challenge);
  drawSeatOffers(message);
}

/**
 * At a challenge table, the way to the challenge screen: the player's table is theirs all day
 * (no Leave, no sharing), and once the last deal is over the button shows the result.
 */
function drawChallengeLink(message, game) {
  const link = $("#table-challenge");
  link.hidden = !game;
  if (!game) return;
  const done = challengeDone(message);
  link.href = challengeHref(game);
  link.textContent = done ? "See your result →" : "Daily challenge";
  link.classList.toggle("btn-primary", done);
  link.dataset.state = done ? "done" : "playing";
  link.title = done ? "Every deal is played: your rank and everybody's deals"
    : "The challenge's leaderboard (your table waits for you: come back with Continue)";
}

/** The table message comes from a seat its creator holds: ours to share. */
function isCreatorSeat(message) {
  return Boolean(message && message.seat != null && state.me
    && message.creator === state.me.player_id);
}

/**
 * For one who watches: a button per seat they may take now (a free seat of a waiting table,
 * a kept one with the table's link) or at the next hand (a bot's seat at an open table, or
 * with the link); for one who is to take a bot's seat over, what is promised and a way out.
 */
function drawSeatOffers(message) {
  const root = $("#table-seat-offers");
  if (!message || message.seat != null || !state.me) {
    root.replaceChildren();
    return;
  }
  const invite = inviteFor(message.table_id);
  const promised = message.seats.find((seat) => seat.successor === state.me.name);
  if (promised) {
    root.replaceChildren(el("span", { class: "tag tag-successor", "data-testid": "taking-over",
      text: `You take seat ${promised.seat + 1} at the next hand` }),
    el("button", { type: "button", class: "btn btn-small", text: "Cancel",
      on: { click: () => room.request("leave", { table_id: message.table_id })
        .catch((error) => notify(error.message)) } }));
    return;
  }
  const waiting = message.status === "waiting" && !message.view;
  const offers = message.seats.filter((seat) => (waiting
    ? !seat.name && !seat.bot && (!seat.reserved || invite)
    : message.status === "playing" && seat.bot && !seat.name && !seat.successor
      && (!message.private || invite)));
  root.replaceChildren(...offers.map((seat) => el("button", {
    type: "button", class: "btn btn-small btn-primary", "data-testid": "offer-seat", "data-seat": seat.seat,
    text: waiting ? `Sit in seat ${seat.seat + 1}` : `Take over seat ${seat.seat + 1}`,
    title: waiting ? "" : "The bot finishes this hand; the seat is yours from the next one",
    on: { click: () => joinSeat(message.table_id, seat.seat) } })));
}

/** Sit at a seat of the table shown (with its link's secret, if we hold one); a refusal is
 * shown as a notice. */
async function joinSeat(tableId, seat) {
  try {
    await room.request("join", { table_id: tableId, seat, invite: inviteFor(tableId) });
    state.myTables.add(tableId);
  } catch (error) {
    notify(error.message);
  }
}

/** The creator fills the empty seats with bots and the match starts. */
async function startWithBots() {
  const button = $("#table-start-bots");
  button.disabled = true;
  try {
    await room.request("start_with_bots", { table_id: state.tableId });
  } catch (error) {
    notify(error.message);
  } finally {
    button.disabled = false;
  }
}

/**
 * Leave the table shown (the table asked for a confirmation during a match) and go back to
 * the lobby. Before the match the seat is given up; during it the seat stays ours but a bot
 * plays it until we come back ("Reconnect" in the lobby), and this tab stops following it.
 */
async function leaveTable() {
  const tableId = state.tableId;
  const latest = tableId ? state.tables.get(tableId) : null;
  if (latest && latest.seat != null) {
    try {
      await room.request("leave", { table_id: tableId });
      if (latest.status !== "playing") state.myTables.delete(tableId);
    } catch (error) {
      notify(error.message);
    }
  }
  goTo("lobby");
}

// -- side panel (a drawer on small screens) --------------------------------------------------

const wide = matchMedia("(min-width: 1000px)");

/**
 * Show the side panel's section: on a wide screen it is always there, so just bring the
 * section into view; on a phone, slide the drawer in.
 * @param {"scores"|"options"} section
 */
function openPanel(section) {
  const target = $(`#${section}-section`);
  if (!wide.matches) {
    document.body.classList.add("panel-open");
    $("#side-panel").setAttribute("aria-hidden", "false");
    $("#panel-backdrop").hidden = false;
    for (const button of document.querySelectorAll("[aria-controls=side-panel]")) {
      button.setAttribute("aria-expanded", "true");
    }
  }
  target.scrollIntoView({ block: "start", behavior: "smooth" });
  (target.querySelector("select, button, [tabindex]") || target).focus({ preventScroll: true });
}

function closePanel() {
  if (!document.body.classList.contains("panel-open")) return;
  document.body.classList.remove("panel-open");
  $("#panel-backdrop").hidden = true;
  for (const button of document.querySelectorAll("[aria-controls=side-panel]")) {
    button.setAttribute("aria-expanded", "false");
  }
}

// -- connection ------------------------------------------------------------------------------

const STATUS_TEXT = {
  connecting: "connecting…", online: "online", reconnecting: "reconnecting…", offline: OFFLINE_TEXT,
};

/**
 * Show the connection's state in the header; offline, a notice under it too (on a phone the
 * header shows a dot only). Back online, look for a newer client: a deploy may have
 * happened while the socket was away.
 * @param {"connecting"|"online"|"reconnecting"|"offline"} status
 */
function showConnection(status) {
  const indicator = $("[data-testid=connection]");
  indicator.dataset.state = status;
  indicator.querySelector(".connection-text").textContent = STATUS_TEXT[status] || status;
  document.body.dataset.connection = status;
  $("[data-testid=offline]").hidden = status !== "offline";
  if (status === "online") checkForNewClient();
}

function onWelcome(welcome) {
  if (state.me && state.me.player_id !== welcome.player_id) startOver(); // signed in as another
  state.me = { player_id: welcome.player_id, name: welcome.name };
  state.account = welcome.account || { ...GUEST };
  state.myTables = new Set(welcome.tables);
  $("#player-name").textContent = welcome.name;
  drawAccountButton();
  if (state.started) {
    drawLobby();
    return;
  }
  state.started = true;
  room.watchLobby().catch((error) => error.code !== "offline" && notify(error.message));
  const wanted = parseHash();
  // A bare address opens the table this player sits at; an address asking for a screen (a
  // replay, a profile, a leaderboard, the challenge, the lobby) opens that screen.
  if (!Object.keys(wanted).length && welcome.tables.length) goTo(`table=${welcome.tables[0]}`);
  else route();
}

/**
 * Forget what belonged to the player who played here: their tables' messages, the table
 * shown, the lobby, the address of what they looked at. The next welcome starts the page
 * over, as after a `hello`: at the table where the new player sits, else in the lobby.
 */
function startOver() {
  history.replaceState(null, "", location.pathname + location.search);
  if (state.tableId) room.unfollow();
  destroyTableView();
  state.tableId = null;
  state.tables.clear();
  state.creators.clear();
  state.myTables = new Set();
  state.lobby = null;
  state.started = false;
  $("#lobby-root").replaceChildren(); // built again for the next player (their profile link)
  chat.setTable(null, null);
}

/**
 * Nobody plays here any more (signed out, account deleted, or a token the server no longer
 * knows): drop the stored token and show the name entry.
 */
function forgetPlayer() {
  save({ token: null });
  room.forget();
  startOver();
  $("#player-name").textContent = "";
  accountDialog.close();
  showNameEntry();
}

/** A new token from an answer (claim, sign-in, password, passkey): keep it for next time. */
function keepToken(token) {
  save({ token });
  room.useToken(token);
}

/** The Account button in the header: what it offers a guest, or an account. */
function drawAccountButton() {
  const button = $("#account-toggle");
  button.hidden = !state.me;
  const label = state.account.registered ? "Account" : "Sign in / Save name";
  button.querySelector(".account-label").textContent = label;
  button.title = state.account.registered ? "Your account: password, passkeys, sign out"
    : "Make your name yours, or sign in to your account";
}

/** The stored token proves nobody any more (signed out, or the password changed elsewhere). */
function sessionEnded() {
  forgetPlayer();
  notify("Your saved session is no longer valid: enter a name, or sign in to your account.");
}

function onServerError(error) {
  if (error.code === "bad_token") {
    sessionEnded();
  } else if (error.code === "no_such_table" && state.tableId && challengeOf(state.tableId)) {
    // A challenge table closes after its last deal: its result is on the challenge screen.
    state.myTables.delete(state.tableId);
    goTo(challengeHref(challengeOf(state.tableId)).slice(1));
  } else if (error.code === "no_such_table" && state.tableId) {
    notify("That table is gone.");
    state.myTables.delete(state.tableId);
    goTo("lobby");
  } else if (error.message) {
    notify(error.message);
  }
}

async function submitName(event) {
  event.preventDefault();
  const input = $("#name-input");
  const name = input.value.trim();
  if (!name) {
    notify("Please enter a name: the other players will see it.");
    input.focus();
    return;
  }
  const button = $("#name-submit");
  button.disabled = true;
  try {
    const result = await room.register(name);
    save({ name: result.name, token: result.token });
    // The welcome message that follows shows the lobby.
  } catch (error) {
    notify(error.message);
  } finally {
    button.disabled = false;
  }
}

/** The client's state for a bug report (seed 004 section 5). */
function clientState() {
  const latest = state.tableId ? state.tables.get(state.tableId) : null;
  return {
    screen: state.screen,
    table_id: state.tableId,
    version: latest?.version ?? null,
    phase: latest?.view?.phase ?? null,
    seat: latest?.seat ?? null,
    connection: room.status,
    user_agent: navigator.userAgent,
    viewport: { width: innerWidth, height: innerHeight, ratio: devicePixelRatio },
    url: location.href,
    options: { ...options },
  };
}

// -- start -----------------------------------------------------------------------------------

function wirePage() {
  renderOptions($("#options-root"), options, () => {
    const latest = state.tableId ? state.tables.get(state.tableId) : null;
    if (state.screen === "table") drawScores(latest || null);
    chat.render();
  });
  drawScores(null);
  $("#name-form").addEventListener("submit", submitName);
  $("#name-sign-in").addEventListener("click", () => accountDialog.open("sign-in"));
  $("#account-toggle").addEventListener("click", () => accountDialog.open());
  $("#back-to-lobby").addEventListener("click", () => goTo("lobby"));
  $("#table-start-bots").addEventListener("click", startWithBots);
  $("#options-toggle").addEventListener("click", () => openPanel("options"));
  $("#scores-toggle").addEventListener("click", () => openPanel("scores"));
  $("#panel-close").addEventListener("click", closePanel);
  $("#panel-backdrop").addEventListener("click", closePanel);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closePanel();
  });
  wide.addEventListener("change", closePanel);
  $("[data-testid=report-bug]").addEventListener("click", () => openBugDialog({
    room, tableId: state.tableId, clientState,
  }));
  addEventListener("hashchange", route);
  // A plain-text notice (written by table.js) is dismissed by a click, like a toast.
  $("[data-testid=notice]").addEventListener("click", (event) => {
    if (event.target === event.currentTarget && !event.currentTarget.childElementCount) {
      event.currentTarget.hidden = true;
    }
  });

  room.addEventListener("status", (event) => showConnection(event.detail));
  room.addEventListener("welcome", (event) => onWelcome(event.detail));
  room.addEventListener("lobby", (event) => {
    state.lobby = event.detail;
    drawLobby();
  });
  room.addEventListener("lobby_update", (event) => {
    if (!state.lobby) return;
    state.lobby = mergeLobby(state.lobby, event.detail);
    drawLobby();
  });
  room.addEventListener("table", (event) => onTable(event.detail));
  room.addEventListener("chat", (event) => chat.receive(event.detail, chatInView()));
  $("#chat-toggle").addEventListener("click", () => {
    openPanel("chat");
    chat.seen();
  });
  $("#table-invite").addEventListener("click", () => {
    const latest = state.tables.get(state.tableId);
    if (latest) inviteDialog.open(latest);
  });
  room.addEventListener("servererror", (event) => onServerError(event.detail));
}

async function start() {
  registerWorker();
  wirePage();
  showConnection(room.status);
  showScreen("loading");
  await room.connect();
  const { token } = load();
  if (!token) {
    showNameEntry();
    return;
  }
  try {
    await room.hello(token); // the welcome message shows the next screen
  } catch (error) {
    if (error.code === "offline") return; // said again after the reconnection
    if (error.code === "bad_token") {
      sessionEnded();
      return;
    }
    notify(error.message);
    showNameEntry();
  }
}

start();
