/**
 * Small text helpers for the markup the table views build as HTML strings (table.js and each
 * game's widgets): escaping server text, points with a real minus sign, a suit symbol in its
 * colour.
 *
 * @module markup
 */

import { SUITS } from "./cards.js";

/** The minus sign used for negative points. */
const MINUS = "\u2212";

/**
 * Escape text for HTML.
 * @param {unknown} value
 */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Signed points, with a real minus sign: "+200", "−40". */
export function signed(points) {
  return points < 0 ? `${MINUS}${-points}` : `+${points}`;
}

/** A score, with a real minus sign. */
export function score(points) {
  return points < 0 ? `${MINUS}${-points}` : String(points);
}

/**
 * A suit's symbol in its colour: `<span class="ct-suit ct-red ct-suit-H">♥</span>` (the suit's
 * own class colours it in the four-colour deck).
 * @param {"S"|"C"|"D"|"H"} suit
 * @param {string} [attributes] more attributes for the span (` title="…"`), already escaped
 */
export function suitHTML(suit, attributes = "") {
  return `<span class="ct-suit ct-${SUITS[suit].colour} ct-suit-${suit}"${attributes}>${SUITS[suit].symbol}</span>`;
}
