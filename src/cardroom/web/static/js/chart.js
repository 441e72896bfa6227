/**
 * A small SVG line chart, no library: the score panel's chart of a match (scores.js) and a
 * profile's rating history (profile.js) draw with it. Lines take their colour from a class
 * (`team-N` for the sides, base.css); guides are horizontal lines with a label at the left.
 *
 * @module chart
 */

import { svg } from "./dom.js";

/** Default size in SVG units (the picture scales to its box). */
const WIDTH = 280;
const HEIGHT = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 16 };

/**
 * @typedef {object} ChartSeries
 * @property {number[]} values one value per step, left to right
 * @property {string} className the line's class besides `chart-line` (a side's `team-N`)
 * @property {(index: number) => (string|null)} [title] a dot's tooltip at a step (null: no dot)
 */

/**
 * @typedef {object} ChartGuide
 * @property {number} value where the line goes
 * @property {string} className `chart-zero` (plain) or `chart-target` (dashed)
 * @property {string} label written at its left
 */

/**
 * An SVG line chart (role "img", described by `description`).
 * @param {object} spec
 * @param {ChartSeries[]} spec.series
 * @param {[number, number]} spec.range the values at the bottom and the top of the chart
 * @param {ChartGuide[]} [spec.guides]
 * @param {string} [spec.startLabel] under the first step
 * @param {string} [spec.endLabel] under the last step
 * @param {string} spec.description what the chart says, for screen readers
 * @param {number} [spec.width]
 * @param {number} [spec.height]
 * @param {string} [spec.className] the svg element's class
 * @returns {SVGElement}
 */
export function lineChart({ series, range, guides = [], startLabel = "", endLabel = "",
  description, width = WIDTH, height = HEIGHT, className = "score-chart-svg" }) {
  const [bottom, top] = range;
  const span = top - bottom || 1;
  const count = Math.max(1, ...series.map((line) => line.values.length - 1));
  const x = (i) => PAD.left + (i / count) * (width - PAD.left - PAD.right);
  const y = (v) => PAD.top + ((top - v) / span) * (height - PAD.top - PAD.bottom);

  const guide = ({ value, className: kind, label }) => [
    svg("line", { x1: PAD.left, x2: width - PAD.right, y1: y(value), y2: y(value), class: kind }),
    svg("text", { x: PAD.left - 4, y: y(value) + 3, class: "chart-label", "text-anchor": "end", text: label }),
  ];
  const line = ({ values, className: kind }) => svg("polyline", {
    class: `chart-line ${kind}`,
    points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
  });
  const dots = ({ values, className: kind, title = () => null }) => values.flatMap((v, i) => {
    const text = title(i);
    return text === null ? [] : [svg("circle", { cx: x(i), cy: y(v), r: 2.5, class: `chart-dot ${kind}` },
      svg("title", { text }))];
  });
  const footer = (text, at, anchor) => (text
    ? [svg("text", { x: at, y: height - 3, class: "chart-label", "text-anchor": anchor, text })] : []);

  return svg("svg", { viewBox: `0 0 ${width} ${height}`, class: className, role: "img",
    "aria-label": description },
  ...guides.flatMap(guide),
  ...footer(startLabel, PAD.left, "start"),
  ...footer(endLabel, width - PAD.right, "end"),
  ...series.map(line),
  ...series.flatMap(dots));
}
