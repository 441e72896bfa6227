/**
 * The rules pages (templates/rules.html): draw the cards of every card row. A module of its
 * own, not an inline script, because the Content-Security-Policy allows no inline script.
 */
import { renderCardSlots } from "./cards.js";

renderCardSlots(document);
