/**
 * Playing cards drawn as SVG strings: faces (index corners, pips, court panels, aces, jokers)
 * and five card backs. Everything is drawn here from small path data, so a card needs no
 * image file and no external resource, and every SVG string stands alone (no shared ids
 * between cards, except per-back pattern ids made unique by a counter).
 *
 * Card text is the engine's notation: rank then suit letter ("AS", "10H", "13D"), "JK" and
 * "JK2" for jokers, and "JK:H" for a joker that was led naming hearts.
 *
 * @module cards
 */

/** Ink colours of the two suit colours. */
const RED = "#c8102e";
const BLACK = "#1b1b1f";

/**
 * The four suits in bidding order (spades lowest): letter, symbol, name and colour.
 * @type {Record<"S"|"C"|"D"|"H", {letter: string, symbol: string, name: string, colour: string}>}
 */
export const SUITS = Object.freeze({
  S: Object.freeze({ letter: "S", symbol: "\u2660", name: "spades", colour: "black" }),
  C: Object.freeze({ letter: "C", symbol: "\u2663", name: "clubs", colour: "black" }),
  D: Object.freeze({ letter: "D", symbol: "\u2666", name: "diamonds", colour: "red" }),
  H: Object.freeze({ letter: "H", symbol: "\u2665", name: "hearts", colour: "red" }),
});

/** Ink of a suit letter. */
const inkOf = (suit) => (SUITS[suit] && SUITS[suit].colour === "red" ? RED : BLACK);

/** The class of what is drawn in a suit's ink (`ink-C`): the four-colour deck (base.css)
 * fills it with that suit's own colour. Nothing for another colour. */
const inkClass = (suit, fill = inkOf(suit)) => (SUITS[suit] && fill === inkOf(suit) ? ` class="ink-${suit}"` : "");

/**
 * Suit shapes in a 10 × 10 box centred on the origin, so one `translate … scale` places a pip
 * of any size anywhere. Clubs are three lobes and a foot in one path.
 */
const SUIT_PATHS = {
  H: "M0 4.6C-3 2.3-5 .4-5-1.8-5-3.6-3.7-4.6-2.5-4.6-1.3-4.6-.4-3.8 0-2.8.4-3.8 1.3-4.6 2.5-4.6 3.7-4.6 5-3.6 5-1.8 5 .4 3 2.3 0 4.6Z",
  D: "M0-5C1.1-3.2 2.4-1.6 3.8 0 2.4 1.6 1.1 3.2 0 5-1.1 3.2-2.4 1.6-3.8 0-2.4-1.6-1.1-3.2 0-5Z",
  S: "M0-4.9C-2.8-2.6-5-.9-5 1.3-5 2.9-3.9 3.8-2.7 3.8-1.7 3.8-.9 3.3-.4 2.5-.6 3.7-1.3 4.5-2.2 5H2.2C1.3 4.5.6 3.7.4 2.5.9 3.3 1.7 3.8 2.7 3.8 3.9 3.8 5 2.9 5 1.3 5-.9 2.8-2.6 0-4.9Z",
  C: "M0-5A2.3 2.3 0 0 0-1.9-1.4 2.3 2.3 0 1 0-.5 2.2C-.7 3.6-1.3 4.4-2.2 5H2.2C1.3 4.4.7 3.6.5 2.2A2.3 2.3 0 1 0 1.9-1.4 2.3 2.3 0 0 0 0-5Z",
};

/**
 * One suit pip.
 * @param {string} suit suit letter
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} size width in card units (the card is 100 × 140)
 * @param {boolean} [flip] drawn upside down (the lower half of a card)
 * @param {string} [fill] colour (the suit's ink by default)
 */
function pip(suit, x, y, size, flip = false, fill = inkOf(suit)) {
  const turn = flip ? " rotate(180)" : "";
  return `<path${inkClass(suit, fill)} d="${SUIT_PATHS[suit]}" fill="${fill}" transform="translate(${x} ${y}) scale(${size / 10})${turn}"/>`;
}

/**
 * Pip positions of number cards, as [column, row] with columns L/M/R and rows from 0 (top)
 * to 1 (bottom); pips below the middle are drawn upside down, as on printed cards.
 */
const PIP_LAYOUTS = (() => {
  const side = (rows) => rows.flatMap((r) => [["L", r], ["R", r]]);
  const four = [0, 1 / 3, 2 / 3, 1];
  const five = [0, 0.25, 0.5, 0.75, 1];
  return {
    1: [["M", 0.5]],
    2: [["M", 0], ["M", 1]],
    3: [["M", 0], ["M", 0.5], ["M", 1]],
    4: side([0, 1]),
    5: [...side([0, 1]), ["M", 0.5]],
    6: side([0, 0.5, 1]),
    7: [...side([0, 0.5, 1]), ["M", 0.25]],
    8: [...side([0, 0.5, 1]), ["M", 0.25], ["M", 0.75]],
    9: [...side(four), ["M", 0.5]],
    10: [...side(four), ["M", 1 / 6], ["M", 5 / 6]],
    11: [...side(five), ["M", 0.5]],
    12: [...side(five), ["M", 0.125], ["M", 0.875]],
    13: [...side(five), ["M", 0.125], ["M", 0.5], ["M", 0.875]],
  };
})();

const PIP_COLUMNS = { L: 31, M: 50, R: 69 };
const PIP_TOP = 27;
const PIP_BOTTOM = 113;

/** Rank words for card names. */
const RANK_NAMES = { A: "Ace", K: "King", Q: "Queen", J: "Jack" };

/**
 * Parse card text.
 * @param {string} text e.g. "AS", "10H", "JK", "JK2", "JK:H"
 * @returns {{rank: string, suit: string|null, joker: boolean, second: boolean, nominated: string|null}|null}
 */
function parseCard(text) {
  const match = /^(?:(JK)(2)?|(A|K|Q|J|1[0-3]|[1-9])([SCDH]))(?::([SCDH]))?$/.exec(String(text || "").trim().toUpperCase());
  if (!match) return null;
  if (match[1]) {
    return { rank: "JK", suit: null, joker: true, second: Boolean(match[2]), nominated: match[5] || null };
  }
  return { rank: match[3], suit: match[4], joker: false, second: false, nominated: null };
}

/**
 * A card's name for people and screen readers.
 * @param {string} text card text
 * @returns {string} "Ace of spades", "10 of hearts", "Joker", "Joker (hearts)", "Second joker"
 */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  if (card.joker) {
    const base = card.second ? "Second joker" : "Joker";
    return card.nominated ? `${base} (${SUITS[card.nominated].name})` : base;
  }
  return `${RANK_NAMES[card.rank] || card.rank} of ${SUITS[card.suit].name}`;
}

/** Size attributes: a fixed width (height follows the 5:7 card ratio) or none (CSS sizes it). */
function sizeAttributes(width) {
  return width ? ` width="${width}" height="${Math.round(width * 1.4)}"` : "";
}

/** Opening tag shared by faces and backs. */
function svgOpen(className, label, width) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="${className}" viewBox="0 0 100 140"${sizeAttributes(width)} role="img" aria-label="${label}">`;
}

/** The white card body with rounded corners and a hairline edge. */
const CARD_BODY = `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#b9b9c0" stroke-width="1.2"/>`;

/**
 * The index in the top-left corner and, turned half round, the bottom-right one.
 * @param {string} inner the corner drawing at the top left
 */
function corners(inner) {
  return `<g>${inner}</g><g transform="rotate(180 50 70)">${inner}</g>`;
}

/** Rank and small suit, large enough to read in an overlapped fan. */
function indexCorner(rank, suit) {
  const ink = inkOf(suit);
  const narrow = rank.length > 1;
  const text = `<text x="12" y="24" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="${narrow ? 20 : 23}" ${narrow ? 'letter-spacing="-1.5" ' : ""}fill="${ink}"${inkClass(suit)}>${rank}</text>`;
  return text + pip(suit, 12, 35, 12);
}

/** Number cards: the traditional pip layout. */
function numberFace(count, suit) {
  const layout = PIP_LAYOUTS[count];
  const size = count >= 11 ? 13 : count >= 9 ? 15 : 17;
  return layout.map(([column, row]) => {
    const y = PIP_TOP + row * (PIP_BOTTOM - PIP_TOP);
    return pip(suit, PIP_COLUMNS[column], Math.round(y * 10) / 10, size, row > 0.5);
  }).join("");
}

/** The ace: one large central suit inside a thin ring. */
function aceFace(suit) {
  const ink = inkOf(suit);
  return `<circle cx="50" cy="70" r="30" fill="none" stroke="${ink}" stroke-opacity=".18" stroke-width="1.5"/>` + pip(suit, 50, 70, 44);
}

/** Panel colours of the courts: jacks blue, queens rose, kings gold. */
const COURT_STYLE = {
  J: { panel: "#dde9f8", trim: "#2f5fa8", hat: "#2f5fa8" },
  Q: { panel: "#f9e0ea", trim: "#b0326a", hat: "#e0b03a" },
  K: { panel: "#f7ecc9", trim: "#a0741a", hat: "#e0b03a" },
};

/**
 * Headgear that tells the courts apart at a glance: the king's crown, the queen's tiara,
 * the jack's feathered cap.
 */
function headgear(rank, colour) {
  if (rank === "K") {
    return `<path d="M39 38V26l5.5 5L50 22l5.5 9L61 26v12Z" fill="${colour}" stroke="#6b4d0c" stroke-width="1"/><circle cx="50" cy="22" r="1.8" fill="${RED}"/><circle cx="39" cy="26" r="1.5" fill="${RED}"/><circle cx="61" cy="26" r="1.5" fill="${RED}"/>`;
  }
  if (rank === "Q") {
    return `<path d="M40 38q10-15 20 0Z" fill="${colour}" stroke="#6b4d0c" stroke-width="1"/><circle cx="50" cy="27.5" r="2" fill="#3a7bd5"/><circle cx="44" cy="31" r="1.3" fill="#fff"/><circle cx="56" cy="31" r="1.3" fill="#fff"/>`;
  }
  return `<path d="M39 38q0-12 11-12t11 12Z" fill="${colour}" stroke="#1d3b6b" stroke-width="1"/><path d="M58 30q9-8 10 2-5-4-9 0Z" fill="${RED}"/>`;
}

/** The upper half of a court figure: headgear, face, shoulders in the suit's ink, emblem. */
function courtHalf(rank, suit) {
  const style = COURT_STYLE[rank];
  const ink = inkOf(suit);
  const face = `<circle cx="50" cy="44" r="7.5" fill="#f6d7b8" stroke="#7a5a40" stroke-width=".8"/><circle cx="47.3" cy="43.2" r=".9" fill="#333"/><circle cx="52.7" cy="43.2" r=".9" fill="#333"/><path d="M47.5 47.3q2.5 1.6 5 0" fill="none" stroke="#a3423a" stroke-width=".8"/>`;
  const beard = rank === "K" ? `<path d="M43.5 46q6.5 10 13 0-2 4-6.5 4t-6.5-4Z" fill="#8a6a4a"/>` : "";
  const hair = rank === "Q" ? `<path d="M42.5 42q-3 9 1 14M57.5 42q3 9-1 14" fill="none" stroke="#c98b2c" stroke-width="2.4" stroke-linecap="round"/>` : "";
  const body = `<path d="M27 70v-6q2-10 13-12l10 7 10-7q11 2 13 12v6Z" fill="${ink}"${inkClass(suit)}/><path d="M40 52l10 7 10-7-2 18H42Z" fill="#fff" opacity=".9"/><path d="M44 55l6 4 6-4" fill="none" stroke="${style.trim}" stroke-width="1.6"/>`;
  const emblem = pip(suit, 50, 65, 7);
  const sceptre = rank === "K"
    ? `<path d="M30 68V50" stroke="#6b4d0c" stroke-width="1.6"/><circle cx="30" cy="49" r="2.2" fill="${style.hat}"/>`
    : rank === "Q"
      ? `<path d="M70 68V54" stroke="#2e7d32" stroke-width="1.2"/><circle cx="70" cy="52" r="2.6" fill="${RED}"/><circle cx="70" cy="52" r="1" fill="#f5d04c"/>`
      : `<path d="M31 68V46" stroke="#5b4636" stroke-width="1.4"/><path d="M31 44l-3 5h6Z" fill="#9aa3ad"/>`;
  return hair + body + sceptre + face + beard + headgear(rank, style.hat) + emblem;
}

/** Court cards: a framed coloured panel holding a figure mirrored top and bottom. */
function courtFace(rank, suit) {
  const style = COURT_STYLE[rank];
  const half = courtHalf(rank, suit);
  return `<rect x="21" y="15" width="58" height="110" rx="4" fill="${style.panel}" stroke="${style.trim}" stroke-width="1.6"/>`
    + `<g>${half}</g><g transform="rotate(180 50 70)">${half}</g>`
    + `<path d="M21 70h58" stroke="${style.trim}" stroke-width="1" stroke-dasharray="2 2"/>`
    + `<rect x="23.5" y="17.5" width="53" height="105" rx="3" fill="none" stroke="${style.trim}" stroke-width=".6"/>`;
}

/** Joker corners: the word JOKER read downwards. */
function jokerCorner(colour) {
  return [..."JOKER"].map((letter, i) =>
    `<text x="11" y="${17 + i * 11}" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="11" fill="${colour}">${letter}</text>`).join("");
}

/**
 * The jester: three-pointed hat with bells, face and ruff. The second joker of a six-handed
 * deck wears other colours.
 */
function jokerFace(second) {
  const [left, middle, right] = second ? ["#1b1b1f", "#c9a227", "#1b1b1f"] : [RED, "#2e7d32", "#2f5fa8"];
  return `<rect x="21" y="15" width="58" height="110" rx="4" fill="${second ? "#f3ecd7" : "#fdf6e3"}" stroke="#c9a227" stroke-width="1.6"/>`
    + `<path d="M50 60L31 34 22 54Z" fill="${left}"/><path d="M50 60L50 22 40 60Z" fill="${middle}"/><path d="M50 60l28-6-9-20Z" fill="${right}"/>`
    + `<circle cx="22" cy="54" r="3" fill="#f5d04c" stroke="#8a6d10"/><circle cx="50" cy="22" r="3" fill="#f5d04c" stroke="#8a6d10"/><circle cx="78" cy="54" r="3" fill="#f5d04c" stroke="#8a6d10"/>`
    + `<path d="M36 59q14-6 28 0v3H36Z" fill="#f5d04c" stroke="#8a6d10" stroke-width=".8"/>`
    + `<circle cx="50" cy="73" r="12" fill="#f6d7b8" stroke="#7a5a40"/><circle cx="45.5" cy="71" r="1.4" fill="#333"/><circle cx="54.5" cy="71" r="1.4" fill="#333"/>`
    + `<circle cx="50" cy="75" r="2.2" fill="${RED}"/><path d="M43 79q7 6 14 0" fill="none" stroke="#a3423a" stroke-width="1.2"/>`
    + `<path d="M34 92l4-6 4 6 4-6 4 6 4-6 4 6 4-6 4 6-4 5H38Z" fill="#fff" stroke="#999" stroke-width=".8"/>`
    + `<path d="M38 97h24l6 24H32Z" fill="${middle}"/><path d="M50 97v24" stroke="#f5d04c" stroke-width="2"/>`
    + `<path d="M50 104l1.5 3h3.2l-2.6 2 1 3.2-3.1-2-3.1 2 1-3.2-2.6-2h3.2Z" fill="#f5d04c"/>`;
}

/** The small badge a joker led in no trumps wears: the suit it named. */
function nominatedBadge(suit) {
  return `<circle cx="78" cy="24" r="13" fill="#fff" stroke="${inkOf(suit)}" stroke-width="2.4"/>` + pip(suit, 78, 24.5, 14);
}

/**
 * A card face as an SVG string.
 * @param {string} text card text ("AS", "10H", "13D", "JK", "JK2", "JK:H")
 * @param {{width?: number, nominated?: string}} [options] width in pixels (otherwise CSS sizes
 *   it; the card is 5:7); `nominated`: the suit a joker led in no trumps named
 * @returns {string}
 */
export function cardSVG(text, options = {}) {
  const card = parseCard(text);
  const width = options.width;
  if (!card) return backSVG(0, { width });
  const nominated = options.nominated || card.nominated;
  const label = cardName(card.joker && nominated ? `${text.split(":")[0]}:${nominated}` : text);
  let art;
  if (card.joker) {
    const colour = card.second ? BLACK : RED;
    art = corners(jokerCorner(colour)) + jokerFace(card.second) + (nominated && SUITS[nominated] ? nominatedBadge(nominated) : "");
  } else {
    const { rank, suit } = card;
    const face = rank === "A" ? aceFace(suit)
      : COURT_STYLE[rank] ? courtFace(rank, suit)
        : numberFace(Number(rank), suit);
    art = face + corners(indexCorner(rank, suit));
  }
  return `${svgOpen("card-svg card-face", label, width)}${CARD_BODY}${art}</svg>`;
}

/** Counter that keeps each back's pattern id unique in the document. */
let backCounter = 0;

/**
 * The five back designs: base colour, the pattern tile (drawn in a `size` square), frame
 * colour and the central medallion.
 */
const BACKS = [
  { // Classic blue: fine diagonal cross-hatch, white frame, oval.
    base: "#1f4e9c", size: 8, frame: "#fff",
    tile: `<path d="M0 0L8 8M8 0L0 8" stroke="#fff" stroke-opacity=".35" stroke-width="1"/>`,
    medallion: `<ellipse cx="50" cy="70" rx="17" ry="25" fill="#1f4e9c" stroke="#fff" stroke-width="2"/><ellipse cx="50" cy="70" rx="11" ry="18" fill="none" stroke="#fff" stroke-opacity=".6"/>`,
  },
  { // Red lattice: diamonds of double lines.
    base: "#b3202a", size: 12, frame: "#fff",
    tile: `<path d="M6 0L12 6 6 12 0 6Z" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="1.3"/><circle cx="6" cy="6" r="1.3" fill="#fff" fill-opacity=".6"/>`,
    medallion: "",
  },
  { // Green felt: soft speckle, cream frame, a card-room roundel.
    base: "#1d6b3b", size: 6, frame: "#efe6c8",
    tile: `<circle cx="1.5" cy="1.5" r=".7" fill="#000" fill-opacity=".18"/><circle cx="4.5" cy="4" r=".6" fill="#fff" fill-opacity=".12"/>`,
    medallion: `<circle cx="50" cy="70" r="17" fill="none" stroke="#efe6c8" stroke-width="2"/>${pip("S", 50, 70, 16, false, "#efe6c8")}`,
  },
  { // Black gold: art-deco rays, double gold frame, diamond.
    base: "#141414", size: 10, frame: "#d4af37",
    tile: `<path d="M0 10L5 0 10 10" fill="none" stroke="#d4af37" stroke-opacity=".35" stroke-width=".9"/>`,
    medallion: `<path d="M50 42L68 70 50 98 32 70Z" fill="#141414" stroke="#d4af37" stroke-width="2"/><path d="M50 52L61 70 50 88 39 70Z" fill="#d4af37"/>`,
  },
  { // Purple waves.
    base: "#5a2a86", size: 14, frame: "#e9dcf7",
    tile: `<path d="M0 4q3.5-4 7 0t7 0M0 11q3.5-4 7 0t7 0" fill="none" stroke="#e9dcf7" stroke-opacity=".5" stroke-width="1.3"/>`,
    medallion: "",
  },
];

/**
 * A card back as an SVG string.
 * @param {number} style 0 Classic blue, 1 Red lattice, 2 Green felt, 3 Black gold, 4 Purple waves
 * @param {{width?: number}} [options] width in pixels (otherwise CSS sizes it)
 * @returns {string}
 */
export function backSVG(style = 0, options = {}) {
  const design = BACKS[Number(style)] || BACKS[0];
  const id = `cr-back-${++backCounter}`;
  const frameInner = `<rect x="9.5" y="9.5" width="81" height="121" rx="3" fill="none" stroke="${design.frame}" stroke-opacity=".7" stroke-width="1"/>`;
  return `${svgOpen("card-svg card-back", "Card back", options.width)}`
    + `<defs><pattern id="${id}" width="${design.size}" height="${design.size}" patternUnits="userSpaceOnUse">${design.tile}</pattern></defs>`
    + `<rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#b9b9c0" stroke-width="1.2"/>`
    + `<rect x="6" y="6" width="88" height="128" rx="5" fill="${design.base}"/>`
    + `<rect x="6" y="6" width="88" height="128" rx="5" fill="url(#${id})"/>`
    + `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="${design.frame}" stroke-width="1.6"/>`
    + frameInner + design.medallion + `</svg>`;
}

/**
 * Fill every `[data-card-slot]` element under `root` with its card (rules pages use it):
 * `<span data-card-slot="JH"></span>`; an optional `data-width` gives the width in pixels.
 * @param {ParentNode} [root]
 */
export function renderCardSlots(root = document) {
  for (const element of root.querySelectorAll("[data-card-slot]")) {
    const width = Number(element.dataset.width) || undefined;
    element.innerHTML = cardSVG(element.dataset.cardSlot, { width });
    if (!element.hasAttribute("title")) element.title = cardName(element.dataset.cardSlot);
  }
}
