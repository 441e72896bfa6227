/**
 * The one WebSocket between this tab and the card room (docs/protocol.md).
 *
 * `Room` numbers every request (`seq`) and settles it with the server's `ack` or `error`.
 * It keeps the session — the token, whether we watch the lobby, the table we follow — so that
 * after a dropped connection it can reconnect with backoff and put the session back
 * (`hello`, `lobby`, `open`) without the rest of the page noticing more than a status change.
 *
 * Events (all `CustomEvent`, the message or value in `detail`):
 * - `welcome`, `lobby`, `table`: the server's messages of those types (a table's changes come
 *   as `table_patch` messages, applied here: the page sees whole `table` messages);
 * - `status`: "connecting" | "online" | "reconnecting" | "offline" (not connected, and the
 *   browser says it has no network: the attempts go on, and succeed once it is back);
 * - `servererror`: an `error` no request was waiting for, or one from restoring the session
 *   (`detail` = {code, message, type}); `bad_token` here means the stored token is no good.
 *
 * @module net
 */

/**
 * Backoff between reconnection attempts, in milliseconds: each wait is a random part of
 * min(MAX_DELAY, FIRST_DELAY * 2^attempt) ("full jitter"), so that when a server restarts,
 * every tab it served does not come back at the same moment.
 */
const FIRST_DELAY = 250;
const MAX_DELAY = 5000;
/** A ping this often keeps idle connections (and proxies) awake and finds dead ones. */
const PING_EVERY = 20000;
/** A ping unanswered this long means the connection is dead even if the socket says not. */
const PING_TIMEOUT = 10000;

/**
 * The socket's address: `?ws=` in the page's query string wins (for development, when the
 * page is served by something other than the card room), else `/ws` on the page's own host.
 * @param {Location} [loc]
 * @returns {string}
 */
export function socketUrl(loc = location) {
  const override = new URLSearchParams(loc.search).get("ws");
  if (override) return override;
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}/ws`;
}

/**
 * Milliseconds to wait before reconnection attempt number `attempt` (0 first): full jitter.
 * @param {number} attempt
 * @param {() => number} [random] a source of numbers in [0, 1)
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  return random() * Math.min(MAX_DELAY, FIRST_DELAY * 2 ** Math.min(attempt, 30));
}

/**
 * The socket's address asking for table changes as patches (`table_patch`, docs/protocol.md).
 * @param {string} url
 * @returns {string}
 */
export function withPatches(url) {
  return `${url}${url.includes("?") ? "&" : "?"}patches=1`;
}

/**
 * The whole `table` message a `table_patch` leads to from the one held, or null when the
 * patch was built against another version (a message was lost: open the table again).
 * @param {object|undefined} held the last whole message of the table
 * @param {object} patch
 * @returns {object|null}
 */
export function applyTablePatch(held, patch) {
  if (!held || held.table_id !== patch.table_id || held.version !== patch.base) return null;
  const merged = { ...held, ...patch.set, version: patch.version };
  if (Object.keys(patch.view_set).length || patch.view_unset.length) {
    const view = { ...(held.view || {}) };
    for (const key of patch.view_unset) delete view[key];
    merged.view = Object.assign(view, patch.view_set);
  }
  return merged;
}

/** A rejection value shaped like the server's errors. */
function failure(code, message) {
  return { code, message };
}

export class Room extends EventTarget {
  /** @param {string} url the WebSocket address, e.g. from {@link socketUrl} */
  constructor(url) {
    super();
    this.url = url;
    /** @type {WebSocket|null} */
    this.socket = null;
    /** @type {"connecting"|"online"|"reconnecting"|"offline"} */
    this.status = "connecting";
    this.seq = 0;
    /** @type {Map<number, {resolve: Function, reject: Function, type: string}>} */
    this.pending = new Map();
    /** What to restore after a reconnection. */
    this.session = { token: null, lobby: false, tableId: null, invite: null };
    /** @type {Map<string, object>} the last whole message of each table followed */
    this.tables = new Map();
    /** A table is being opened again after a patch that did not fit. */
    this.reopening = false;
    /** Reconnection attempts since the socket was last open (the backoff's exponent). */
    this.attempt = 0;
    this.retryTimer = 0;
    this.pingTimer = 0;
    this.everConnected = false;
    /** @type {Array<Function>} resolvers waiting for the next `online` */
    this.waiters = [];
    addEventListener("online", () => {
      if (this.status !== "online") this.setStatus(this.waitingStatus());
      this.retryNow();
    });
    // Offline, the socket may linger without failing for a long while: drop it at once so
    // the page says it is offline and the backoff starts.
    addEventListener("offline", () => {
      this.drop();
      if (this.status !== "online") this.setStatus(this.waitingStatus());
    });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  /**
   * Open the socket (if not open already).
   * @returns {Promise<void>} settles when the socket is open
   */
  connect() {
    if (this.status === "online") return Promise.resolve();
    const opened = new Promise((resolve) => this.waiters.push(resolve));
    if (!this.socket) this.open();
    return opened;
  }

  /**
   * Send a message and wait for its answer.
   * @param {string} type a client message type of docs/protocol.md
   * @param {object} [fields] the message's other fields
   * @returns {Promise<object>} the ack's `result`; rejects with `{code, message}`
   */
  request(type, fields = {}) {
    if (this.status !== "online" || !this.socket) {
      return Promise.reject(failure("offline", "Not connected to the card room: reconnecting…"));
    }
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, type });
      try {
        this.socket.send(JSON.stringify({ ...fields, type, seq }));
      } catch {
        this.pending.delete(seq);
        reject(failure("offline", "The message could not be sent: reconnecting…"));
      }
    });
  }

  /**
   * Prove who we are; the token is kept to say `hello` again after a reconnection.
   * @param {string} token
   */
  async hello(token) {
    this.session.token = token;
    try {
      return await this.request("hello", { token });
    } catch (error) {
      if (error.code === "bad_token") this.session.token = null;
      throw error;
    }
  }

  /**
   * Register a new player under `name`; the token of the answer is kept for `hello`.
   * @param {string} name
   * @returns {Promise<{player_id: string, name: string, token: string}>}
   */
  async register(name) {
    const result = await this.request("register", { name });
    this.session.token = result.token;
    return result;
  }

  /**
   * Keep a new token: claiming a name, signing in, changing the password and passkeys each
   * replace the connection's token, and the next reconnection says `hello` with the new one.
   * @param {string} token
   */
  useToken(token) {
    this.session.token = token;
  }

  /**
   * Forget the session after signing out or deleting the account: the connection is
   * nobody's, so a reconnection says no `hello` and follows no lobby or table.
   */
  forget() {
    this.session = { token: null, lobby: false, tableId: null, invite: null };
  }

  /** Receive `lobby` messages from now on (and again after any reconnection). */
  watchLobby() {
    this.session.lobby = true;
    return this.request("lobby");
  }

  /**
   * Follow a table (`open`): our seat's view if we sit there, else a spectator's; a private
   * table's needs its `invite`. It is opened again after any reconnection.
   * @param {string} tableId
   * @param {string|null} [invite]
   * @returns {Promise<{table_id: string, seat: number|null}>}
   */
  follow(tableId, invite = null) {
    for (const held of this.tables.keys()) if (held !== tableId) this.tables.delete(held);
    this.session.tableId = tableId;
    this.session.invite = invite;
    return this.request("open", { table_id: tableId, invite });
  }

  /** Stop reopening a table after reconnections (the server has no "close"). */
  unfollow() {
    this.session.tableId = null;
  }

  // -- the socket's life ----------------------------------------------------------------------

  /** Create the socket and wire its handlers. */
  open() {
    clearTimeout(this.retryTimer);
    this.retryTimer = 0;
    let socket;
    try {
      socket = new WebSocket(withPatches(this.url));
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.tables.clear(); // a new connection's patches build on its own messages only
    socket.addEventListener("open", () => this.onOpen(socket));
    // A socket given up on (dropped while offline) may still hand over what it had
    // buffered: its messages are old, and its patches build on nothing held now.
    socket.addEventListener("message", (event) => {
      if (socket === this.socket) this.onMessage(event.data);
    });
    socket.addEventListener("close", () => this.onClose(socket));
    socket.addEventListener("error", () => socket.close());
  }

  /** Connected: restore the session, then tell the page. */
  onOpen(socket) {
    if (socket !== this.socket) return;
    this.attempt = 0;
    const resuming = this.everConnected;
    this.everConnected = true;
    this.setStatus("online");
    this.pingTimer = setInterval(() => this.ping(), PING_EVERY);
    if (resuming) this.restore();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /**
   * Put the session back after a reconnection, in order: who we are, the lobby, the table.
   * Failures are reported as `servererror` with the failing message's type.
   */
  async restore() {
    const { token, lobby, tableId, invite } = this.session;
    try {
      if (token) await this.hello(token);
      if (lobby) await this.watchLobby();
      if (tableId) await this.follow(tableId, invite);
    } catch (error) {
      if (error.code !== "offline") this.emit("servererror", { ...error, type: "restore" });
    }
  }

  /** Ask for an answer; none in time means the connection is dead: drop it. */
  ping() {
    const socket = this.socket;
    const timer = setTimeout(() => {
      if (socket === this.socket) this.drop();
    }, PING_TIMEOUT);
    this.request("ping").catch(() => {}).finally(() => clearTimeout(timer));
  }

  /** Give up on the current socket now (without waiting for it to report its end). */
  drop() {
    const socket = this.socket;
    if (!socket) return;
    this.onClose(socket);
    try {
      socket.close();
    } catch {
      // Already closing.
    }
  }

  /** Closed (or failed to open, or dropped): fail what is pending and try again later. */
  onClose(socket) {
    if (socket !== this.socket) return;
    this.socket = null;
    clearInterval(this.pingTimer);
    for (const { reject } of this.pending.values()) {
      reject(failure("offline", "The connection was lost: reconnecting…"));
    }
    this.pending.clear();
    this.scheduleRetry();
  }

  /**
   * Wait a random part of an exponentially growing, capped delay, the first time too: the
   * tabs of a restarted server spread their attempts out instead of stampeding.
   */
  scheduleRetry() {
    this.setStatus(this.waitingStatus());
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), retryDelay(this.attempt));
    this.attempt += 1;
  }

  /**
   * What to say while not connected: "offline" when the browser knows it has no network,
   * else "reconnecting" (or "connecting" before the first connection).
   * @returns {"connecting"|"reconnecting"|"offline"}
   */
  waitingStatus() {
    if (navigator.onLine === false) return "offline";
    return this.everConnected ? "reconnecting" : "connecting";
  }

  /** The network came back (or the tab woke up): do not wait for the backoff. */
  retryNow() {
    if (this.socket || this.status === "online") return;
    this.attempt = 0;
    this.open();
  }

  /** Route one server message to its request or to listeners. */
  onMessage(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "ack" || message.type === "error") {
      const waiting = this.pending.get(message.seq);
      if (waiting) {
        this.pending.delete(message.seq);
        if (message.type === "ack") waiting.resolve(message.result || {});
        else waiting.reject(failure(message.code, message.message));
      } else if (message.type === "error") {
        this.emit("servererror", { code: message.code, message: message.message, type: null });
      }
      return;
    }
    if (message.type === "table_patch") {
      this.onTablePatch(message);
      return;
    }
    if (message.type === "table") this.tables.set(message.table_id, message);
    if (["welcome", "lobby", "lobby_update", "table", "chat"].includes(message.type)) {
      this.emit(message.type, message);
    }
  }

  /**
   * A table's change as a patch: applied to the message held and passed on whole; one that
   * does not fit (a message was lost between the servers) opens the table again.
   * @param {object} patch
   */
  onTablePatch(patch) {
    const merged = applyTablePatch(this.tables.get(patch.table_id), patch);
    if (merged) {
      this.tables.set(patch.table_id, merged);
      this.emit("table", merged);
    } else if (this.session.tableId === patch.table_id && !this.reopening) {
      // Once: the patches already on their way do not fit either, until the whole message.
      this.reopening = true;
      this.follow(patch.table_id, this.session.invite).catch(() => {})
        .finally(() => { this.reopening = false; });
    }
  }

  /** @param {"connecting"|"online"|"reconnecting"|"offline"} status */
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.emit("status", status);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
