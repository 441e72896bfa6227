/**
 * Which browser module draws each game's table: the one place a game's module registers.
 *
 * app.js picks the entry by the table message's `game` (docs/protocol.md), loads its module on
 * first use and builds the named export with `new View(root, ctx)`. Each module builds the
 * shared, game-neutral {@link TableView} with its own widgets (a {@link GameWidgets} subclass,
 * game_widgets.js), so a third game adds its module and one line here, and nothing else of the
 * browser client changes.
 *
 * @module table_games
 */

/** Game name → [module path, relative to this folder; the export that builds its table]. */
export const TABLE_MODULES = {
  500: ["./five_hundred.js", "FiveHundredTableView"],
  1000: ["./thousand.js", "ThousandTableView"],
};
