/**
 * The lobby (seed 004 section 2): the table of active games and the "New table" form.
 *
 * One row per table with its Team One and Team Two seats — a name, a bot, "away", or a
 * "Play here" button for a free seat — the preset, the status, the score and the Age (time
 * since the table last changed, counted on locally between lobby messages). The creator gets
 * "Add bot" on free seats and "Start with bots"; a player gets "Reconnect" on tables where
 * they sit. The page (app.js) does the requests; this module only draws and calls back.
 * Everything it says about a game (its title, presets and their titles, descriptions, seats,
 * sides and winning scores) comes from the server's catalogues (`/api/rules`), so a new game
 * needs nothing here.
 *
 * @module lobby
 */

import { el, leaderboardLinks, nameLink, profileHref, ratingBadge, ratingText, seatName } from "./dom.js";
import { houseRules, loadCatalogue } from "./house_rules.js";

/**
 * Every game's catalogue from `/api/rules` (titles, presets with their titles, descriptions,
 * seats and sides, house options), in the server's order, by game name: the lobby knows no
 * game of its own. Filled once, when {@link games} settles.
 * @type {Map<string, object>}
 */
const catalogues = new Map();

/**
 * The games, loaded as soon as the page loads this module: the default game's catalogue (the
 * one `/api/rules` gives without a game) names them all, then each one's is fetched.
 * @type {Promise<{all: Array<object>, first: string}>}
 */
const games = loadCatalogue().then((first) => Promise.all(first.games.map(
  (game) => (game === first.game ? first : loadCatalogue(game))))
  .then((all) => {
    for (const catalogue of all) catalogues.set(catalogue.game, catalogue);
    return { all, first: first.game };
  }));

/**
 * The games the room plays, in the server's order: each one's name (`game`) and `title`.
 * @returns {Promise<Array<{game: string, title: string}>>}
 */
export function loadGames() {
  return games.then(({ all }) => all.map(({ game, title }) => ({ game, title })));
}

/**
 * A preset's details in a game (title, blurb, players, teams), if the games have loaded.
 * @param {string} game
 * @param {string|null} preset
 */
function presetDetails(game, preset) {
  return catalogues.get(game)?.preset_details.find((details) => details.name === preset) || null;
}

/**
 * The one-line description of a bot level a game offers, or null for a bot the game offers no
 * level for and until the games have loaded.
 * @param {string} game
 * @param {string} bot a registry name ("search")
 */
function botDescription(game, bot) {
  return botLevel(game, bot)?.description || null;
}

/**
 * A bot level a game offers (its catalogue's `bot_levels`: word, description, rating), or
 * null for a bot the game offers no level for and until the games have loaded.
 * @param {string} game
 * @param {string} bot a registry name ("search")
 */
function botLevel(game, bot) {
  return catalogues.get(game)?.bot_levels?.find((level) => level.bot === bot) || null;
}

/**
 * A preset's display name in its game (the catalogue's title), or null for house rules
 * (and until the games have loaded).
 * @param {string} game
 * @param {string|null} preset
 */
export function presetTitle(game, preset) {
  return presetDetails(game, preset)?.title || null;
}

/**
 * What the lobby needs from the page.
 * @typedef {object} LobbyContext
 * @property {Set<string>} myTables tables where this player sits
 * @property {(tableId: string) => boolean} isCreator whether this player created the table
 * @property {(tableId: string, seat: number) => Promise<unknown>} join
 * @property {(tableId: string) => Promise<unknown>} reconnect open a table where we sit
 * @property {(tableId: string) => Promise<unknown>} watch open a table as a spectator
 * @property {(tableId: string, seat: number) => Promise<unknown>} addBot
 * @property {(tableId: string) => Promise<unknown>} startWithBots
 * @property {(request: {game: string, preset: string, rules: object, seat: number,
 *   turn_seconds: number|null, hints: boolean, rated: boolean}) => Promise<unknown>} create
 * @property {(game: string, preset: string) => Promise<unknown>} playNow sit down at once
 * @property {(game: string) => string|null} lastPreset the preset last played at ``game``
 * @property {() => ({player_id: string, name: string}|null)} me who plays here
 */

/**
 * The lobby brought up to date with a `lobby_update` message: the rows of tables that changed
 * replaced (or added), closed tables dropped, most recently changed first.
 * @param {{tables: Array<object>}} lobby the lobby shown so far
 * @param {{tables: Array<object>, removed: Array<string>}} update
 * @returns {{tables: Array<object>}}
 */
export function mergeLobby(lobby, update) {
  const rows = new Map(lobby.tables.map((row) => [row.table_id, row]));
  for (const id of update.removed || []) rows.delete(id);
  for (const row of update.tables) rows.set(row.table_id, row);
  const tables = [...rows.values()].sort((a, b) => (b.updated_at || 0) - (a.updated_at || 0));
  return { ...lobby, tables, total: tables.length };
}

/**
 * The turn timer in words, the same in the lobby and at the table.
 * @param {number|null|undefined} seconds
 */
export function timerText(seconds) {
  return seconds ? `${Math.round(seconds)} s a turn` : "no timer";
}

/** When the lobby message being shown arrived, to count the Age on from it. */
let receivedAt = performance.now();

/** What {@link renderLobby} drew last, to draw again once the games' titles have loaded. */
let shown = null;

games.then(() => {
  if (shown) drawRows(shown.root, shown.lobby, shown.ctx);
}).catch(() => {
  // The rows keep the presets' names; the New table form says what went wrong.
});

/**
 * Draw (or redraw) the lobby. The New table form is built once, so a lobby update never
 * throws away what the user is typing.
 * @param {HTMLElement} root
 * @param {{tables: Array<object>}} lobby the server's `lobby` message
 * @param {LobbyContext} ctx
 */
export function renderLobby(root, lobby, ctx) {
  receivedAt = performance.now();
  if (!root.querySelector("[data-testid=lobby]")) {
    root.append(
      playNowCard(ctx),
      el("section", { class: "card lobby-games", "aria-labelledby": "lobby-heading" },
        el("h2", { id: "lobby-heading", text: "Active games" }),
        el("table", { class: "lobby-table", "data-testid": "lobby" })),
      newTableForm(ctx),
    );
  }
  shown = { root, lobby, ctx };
  drawRows(root, lobby, ctx);
}

/**
 * The list of games: one row per table.
 * @param {HTMLElement} root
 * @param {{tables: Array<object>}} lobby
 * @param {LobbyContext} ctx
 */
function drawRows(root, lobby, ctx) {
  const list = root.querySelector("[data-testid=lobby]");
  const rows = lobby.tables.map((table) => tableRow(table, ctx));
  list.replaceChildren(
    el("caption", { class: "visually-hidden", text: "Active games: pick a seat to play" }),
    el("thead", {}, el("tr", {},
      ...["Game", "Team One / Players", "Team Two", "Score", "Age", ""].map((text) =>
        el("th", { scope: "col", text })))),
    el("tbody", {}, ...(rows.length ? rows : [emptyRow()])),
  );
  tickAges();
}

/**
 * Empty the list of games while the lobby is not shown, so its buttons (Start with bots …)
 * never stand in for the table screen's; {@link renderLobby} fills it again.
 * @param {HTMLElement} root
 */
export function clearLobby(root) {
  shown = null;
  root.querySelector("[data-testid=lobby] tbody")?.replaceChildren();
}

/**
 * "Play 500" and "Play 1000": one tap seats the player at once, with the preset they last
 * played (the game's default at first), at a table that has room or a new one with bots.
 * @param {LobbyContext} ctx
 */
function playNowCard(ctx) {
  const buttons = el("div", { class: "play-now-buttons" });
  const links = el("nav", { class: "lobby-links", "aria-label": "Ratings" });
  const card = el("section", { class: "card play-now", "aria-labelledby": "play-now-heading" },
    el("h2", { id: "play-now-heading", text: "Play now" }),
    el("p", { class: "muted small",
      text: "A seat at once: at a table that has room, or a new one where bots fill the other seats until people come." }),
    buttons,
    el("p", { class: "lobby-challenge" },
      el("a", { class: "btn", href: "#challenge=500", "data-testid": "challenge-link", text: "Daily challenge" }),
      el("span", { class: "muted small",
        text: "Today's deals, the same for everybody: play them once, at your own pace, and see how you compare." })),
    links);
  games.then(({ all }) => {
    const me = ctx.me();
    links.replaceChildren(...leaderboardLinks(all),
      me ? el("a", { class: "lobby-profile", href: profileHref(me.player_id), "data-testid": "my-profile-link",
        text: "Your profile and ratings" }) : null);
    buttons.replaceChildren(...all.map((catalogue) => {
      const preset = ctx.lastPreset(catalogue.game) || catalogue.default_preset;
      const title = presetTitle(catalogue.game, preset) || preset;
      return actionButton(`Play ${catalogue.title}`, "play-now",
        () => ctx.playNow(catalogue.game, preset),
        { class: "btn btn-primary btn-large", detail: title, game: catalogue.game });
    }));
  }).catch(() => {});
  return card;
}

/** The row shown when no game is on. */
function emptyRow() {
  return el("tr", { class: "lobby-empty" },
    el("td", { colspan: 6, text: "No games at the moment. Start a new table below, then invite your friends or fill the seats with bots." }));
}

/**
 * One table's row.
 * @param {object} table a TableSummary
 * @param {LobbyContext} ctx
 */
function tableRow(table, ctx) {
  const mine = ctx.myTables.has(table.table_id);
  const creator = ctx.isCreator(table.table_id);
  const waiting = table.status === "waiting";
  const free = table.seats.filter(isFree).length;
  const partnerships = table.teams?.length === 2 && table.teams.every((team) => team.length > 1);
  const teams = partnerships ? table.teams : [table.seats.map((_, n) => n)];

  const seatCell = (n) => {
    const seat = table.seats[n];
    if (!isFree(seat)) {
      const taken = occupant(seat, n);
      if (!waiting && !mine && seat.bot && !seat.name && !seat.successor) {
        taken.append(actionButton("Take over", "take-over", () => ctx.join(table.table_id, n),
          { seat: n, class: "btn btn-small", title: "The bot finishes this hand; the seat is yours from the next one" }));
      }
      return taken;
    }
    const buttons = [];
    if (waiting && !mine) {
      buttons.push(actionButton("Play here", "play-here",
        () => ctx.join(table.table_id, n), { seat: n, class: "btn btn-seat" }));
    }
    if (waiting && creator && !seat.reserved) {
      buttons.push(actionButton("Add bot", "add-bot",
        () => ctx.addBot(table.table_id, n), { seat: n, class: "btn btn-small" }));
    }
    if (seat.reserved) buttons.push(el("span", { class: "tag tag-reserved", text: "kept for a friend" }));
    if (!buttons.length) buttons.push(el("span", { class: "seat-free", text: "free seat" }));
    return el("div", { class: "seat seat-open", dataset: { seat: n } }, ...buttons);
  };

  const actions = [];
  if (mine) {
    actions.push(actionButton("Reconnect", "reconnect",
      () => ctx.reconnect(table.table_id), { class: "btn btn-primary" }));
  } else if (!waiting) {
    actions.push(actionButton("Watch", "watch", () => ctx.watch(table.table_id),
      { class: "btn" }));
  }
  if (creator && waiting && free > 0) {
    actions.push(actionButton("Start with bots", "start-with-bots",
      () => ctx.startWithBots(table.table_id), { class: "btn" }));
  }

  const status = waiting
    ? `Waiting for ${free} player${free === 1 ? "" : "s"}`
    : "Playing";
  return el("tr", { dataset: { tableId: table.table_id, status: table.status } },
    el("td", { class: "lobby-game", "data-label": "Game" },
      el("span", { class: `tag tag-game game-${table.game}`, text: table.game }),
      el("strong", { class: "lobby-preset",
        text: presetTitle(table.game, table.preset) || table.preset || "House rules" }),
      table.hints ? el("span", { class: "tag tag-hints", "data-testid": "hints-tag", text: "hints",
        title: "Casual table: players may ask the search bot for a hint on their turn" }) : null,
      el("span", { class: "tag tag-timer", "data-testid": "timer-tag", text: timerText(table.turn_seconds),
        title: table.turn_seconds ? "A bot plays for whoever has not acted in time" : "Take your time: no turn timer" }),
      table.bot_word ? el("span", { class: "tag tag-bots", "data-testid": "bots-tag", text: `${table.bot_word} bots`,
        title: botDescription(table.game, table.bot) || "The bots that fill empty seats" }) : null,
      table.rated === false ? el("span", { class: "tag tag-unrated", "data-testid": "unrated-tag", text: "unrated",
        title: "Matches here change nobody's rating" }) : null,
      el("span", { class: "lobby-status" },
        el("span", { class: `badge badge-${table.status}`, text: status }),
        el("span", { class: "muted small", text: ` first to ${table.target}` }))),
    ...(partnerships
      ? [el("td", { class: "lobby-team", "data-label": "Team One" }, ...teams[0].map(seatCell)),
        el("td", { class: "lobby-team", "data-label": "Team Two" }, ...teams[1].map(seatCell))]
      : [el("td", { class: "lobby-team lobby-players", colspan: 2, "data-label": "Players" },
        ...teams[0].map(seatCell))]),
    el("td", { class: "lobby-score", "data-label": "Score" },
      (table.scores?.length ? table.scores : [0, 0]).join(" – ")),
    el("td", { class: "lobby-age", "data-label": "Age" },
      el("span", { dataset: { ageBase: String(table.age_seconds ?? 0) }, text: "" })),
    el("td", { class: "lobby-actions" }, ...actions),
  );
}

/** @returns {boolean} whether nobody (person or bot) sits in the seat */
function isFree(seat) {
  return !seat || (!seat.name && !seat.bot);
}

/**
 * A taken seat: the name (a link to the player's or bot's profile) with the rating in the
 * table's game, and tags for a bot or an away player (a bot plays for them).
 */
function occupant(seat, n) {
  const tags = [];
  if (seat.bot && !seat.name) tags.push(el("span", { class: "tag", text: "bot" }));
  if (seat.away) tags.push(el("span", { class: "tag tag-away", text: "away", title: "A bot plays until they come back" }));
  if (seat.successor) {
    tags.push(el("span", { class: "tag tag-successor", text: `${seat.successor} next hand`,
      title: `${seat.successor} takes this seat over when the hand ends` }));
  }
  return el("div", { class: "seat", dataset: { seat: n } },
    nameLink(seatName(seat, n), seat.player_id, "seat-name"), ratingBadge(seat.rating, "seat-rating"),
    ...tags);
}

/**
 * A button that calls `action` and stays disabled until its request settles (so a double
 * click sends one request).
 * @param {string} text
 * @param {string} testid the button's data-testid
 * @param {() => Promise<unknown>} action
 * @param {{seat?: number, class?: string, title?: string, detail?: string, game?: string}} [extra]
 *   ``detail``: a second, smaller line on the button
 */
function actionButton(text, testid, action, extra = {}) {
  const button = el("button", {
    type: "button", class: extra.class || "btn", "data-testid": testid, text,
    "data-seat": extra.seat, "data-game": extra.game, title: extra.title,
  }, extra.detail ? el("span", { class: "btn-detail", text: extra.detail }) : null);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await action();
    } catch {
      // The page shows the error in the notice region.
    } finally {
      button.disabled = false;
    }
  });
  return button;
}


/** Names of the sides in the seat picker, in seat order. */
const TEAM_NAMES = ["Team One", "Team Two", "Team Three"];

/**
 * The "New table" form: game, preset, target score, optional turn timer and the seat to take
 * (seed 004's row of "Play here" buttons, as radio buttons by side). Games, presets, their
 * descriptions, targets, seats and sides all come from the games' catalogues (`/api/rules`).
 * It starts closed (a heading and a button) so the list of games stays in view; a click on
 * it opens it.
 * @param {LobbyContext} ctx
 */
function newTableForm(ctx) {
  const seatChoice = (n) => el("label", { class: "seat-choice" },
    el("input", { type: "radio", name: "new-seat", id: `new-seat-${n}`, value: n, checked: n === 0 }),
    el("span", { text: `Seat ${n + 1}` }));
  const gameSelect = el("select", { id: "new-game", name: "game" });
  const presetSelect = el("select", { id: "new-preset", name: "preset" });
  const presetHelp = el("p", { class: "muted small", id: "new-preset-help" });
  const catalogue = () => catalogues.get(gameSelect.value);
  const details = () => presetDetails(gameSelect.value, presetSelect.value);
  /** A preset's seats, by side where every side is a partnership, else all round the table. */
  const showSeats = () => {
    const { players = 0, teams = [] } = details() || {};
    const partnerships = teams.length > 1 && teams.every((team) => team.length > 1);
    const sides = partnerships
      ? teams.map((team, n) => [TEAM_NAMES[n] || `Team ${n + 1}`, team])
      : [["Clockwise", Array.from({ length: players }, (_, n) => n)]];
    seatPicker.replaceChildren(el("legend", { text: "Your seat" }), ...sides.map(([label, seats]) =>
      el("div", { class: "seat-picker-team" },
        el("span", { class: "muted small", text: label }), ...seats.map(seatChoice))));
  };
  /** The chosen preset's description, seats and winning score. */
  const showPreset = () => {
    presetHelp.textContent = details()?.blurb || "";
    showSeats();
    const target = catalogue()?.presets[presetSelect.value]?.target;
    if (target != null) targetInput.value = String(target);
  };
  presetSelect.addEventListener("change", showPreset);
  const botSelect = el("select", { id: "new-bot", name: "bot", "aria-describedby": "new-bot-help new-bot-rating" });
  const botHelp = el("p", { class: "muted small", id: "new-bot-help" });
  const botRating = el("p", { class: "muted small", id: "new-bot-rating", "data-testid": "new-bot-rating" });
  /** The game's bot levels, the room's default bot chosen (else the weakest level). */
  const showBots = () => {
    const { bot_levels: levels = [], default_bot: preferred } = catalogue() || {};
    botSelect.replaceChildren(...levels.map(({ word, bot }) => el("option", { value: bot, text: word })));
    const known = levels.some(({ bot }) => bot === preferred);
    botSelect.value = known ? preferred : levels[0]?.bot ?? "";
    botSelect.dispatchEvent(new Event("change"));
  };
  botSelect.addEventListener("change", () => {
    botHelp.textContent = botDescription(gameSelect.value, botSelect.value) || "";
    const rating = botLevel(gameSelect.value, botSelect.value)?.rating;
    botRating.textContent = rating == null ? "" : `Rated ${ratingText(rating)} in ${gameSelect.value}.`;
    botRating.hidden = rating == null;
  });
  presetSelect.setAttribute("aria-describedby", "new-preset-help");
  const targetInput = el("input", { id: "new-target", name: "target", type: "number", min: 100, max: 5000,
    step: 50, value: 500, inputmode: "numeric", required: true });
  const seatPicker = el("fieldset", { class: "seat-picker" });
  /** The game's presets, its default chosen (the house rules follow the preset's change). */
  const showGame = () => {
    const chosen = catalogue();
    if (!chosen) return;
    presetSelect.replaceChildren(...chosen.preset_details.map(({ name, title }) =>
      el("option", { value: name, text: title })));
    presetSelect.value = chosen.default_preset;
    presetSelect.dispatchEvent(new Event("change"));
    showBots();
  };
  gameSelect.addEventListener("change", showGame);
  const house = houseRules(presetSelect, gameSelect);
  games.then(({ all, first }) => {
    gameSelect.replaceChildren(...all.map((game) => el("option", { value: game.game, text: game.title })));
    gameSelect.value = first;
    gameSelect.dispatchEvent(new Event("change"));
    submit.disabled = false;
  }).catch(() => {
    presetHelp.textContent = "The games could not be loaded: reload the page to try again.";
  });

  const submit = el("button", { type: "submit", class: "btn btn-primary", "data-testid": "create-table",
    text: "Create table", disabled: true });
  const toggle = el("button", { type: "button", class: "btn new-table-toggle", "aria-expanded": "false",
    "aria-controls": "new-table-body", text: "Start a new table" });
  const body = el("div", { id: "new-table-body", class: "new-table-body", hidden: true },
    el("div", { class: "form-grid" },
      el("div", { class: "field" }, el("label", { for: "new-game", text: "Game" }), gameSelect),
      el("div", { class: "field" }, el("label", { for: "new-preset", text: "Rules" }), presetSelect, presetHelp),
      el("div", { class: "field" }, el("label", { for: "new-target", text: "Target score" }), targetInput),
      el("div", { class: "field" }, el("label", { for: "new-bot", text: "Bots" }), botSelect, botHelp, botRating),
      el("div", { class: "field" }, el("label", { for: "new-turn-seconds", text: "Turn timer (seconds)" }),
        el("input", { id: "new-turn-seconds", name: "turn_seconds", type: "number", min: 5, max: 3600,
          step: 1, placeholder: "No timer", inputmode: "numeric" })),
      el("div", { class: "field field-check" },
        el("label", { for: "new-hints" },
          el("input", { id: "new-hints", name: "hints", type: "checkbox",
            "aria-describedby": "new-hints-help" }),
          " Casual table: hints allowed"),
        el("p", { class: "muted small", id: "new-hints-help",
          text: "Every player may ask the search bot what it would do on their turn. Shown in the lobby." })),
      el("div", { class: "field field-check" },
        el("label", { for: "new-private" },
          el("input", { id: "new-private", name: "private", type: "checkbox",
            "aria-describedby": "new-private-help" }),
          " Friends only"),
        el("p", { class: "muted small", id: "new-private-help",
          text: "Not listed in the lobby: send your friends the table's invite link (Invite friends, at the table)." })),
      el("div", { class: "field field-check field-rated" },
        el("label", { for: "new-rated" },
          el("input", { id: "new-rated", name: "rated", type: "checkbox", checked: true,
            "aria-describedby": "new-rated-help" }),
          " Rated"),
        el("p", { class: "muted small", id: "new-rated-help",
          text: "Each finished match changes the players' ratings. Untick for a friendly game." })),
    ),
    seatPicker,
    house.element,
    el("div", { class: "form-actions" }, submit),
  );
  const form = el("form", { class: "card new-table", "data-testid": "new-table",
    "aria-labelledby": "new-table-heading" },
  el("div", { class: "new-table-head" },
    el("h2", { id: "new-table-heading", text: "New table" }), toggle),
  body);

  /** Open or close the form's fields; opening puts the focus on the first one. */
  const setOpen = (open) => {
    body.hidden = !open;
    form.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Close" : "Start a new table";
    if (open) presetSelect.focus();
  };
  // A click anywhere on the closed form opens it; only its own button closes it again.
  form.addEventListener("click", (event) => {
    if (event.target.closest(".new-table-toggle")) setOpen(body.hidden);
    else if (body.hidden) setOpen(true);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const target = Number(data.get("target")) || catalogue().presets[presetSelect.value].target;
    const seconds = Number(data.get("turn_seconds"));
    submit.disabled = true;
    try {
      await ctx.create({
        game: gameSelect.value,
        preset: String(data.get("preset") || catalogue().default_preset),
        rules: { ...house.changes(), target },
        seat: Number(data.get("new-seat") ?? 0),
        turn_seconds: seconds > 0 ? seconds : null,
        bot: String(data.get("bot") || "") || null,
        hints: data.get("hints") === "on",
        rated: data.get("rated") === "on",
        private: data.get("private") === "on",
      });
      setOpen(false);
    } catch {
      // Shown by the page in the notice region.
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * "9 s", "3 min 12 s", "2 h 5 min": seed 004's Age column.
 * @param {number} seconds
 */
export function formatAge(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Count every Age cell on from the server's figure. */
function tickAges() {
  const elapsed = (performance.now() - receivedAt) / 1000;
  for (const cell of document.querySelectorAll("[data-age-base]")) {
    cell.textContent = formatAge(Number(cell.dataset.ageBase) + elapsed);
  }
}

setInterval(tickAges, 1000);
