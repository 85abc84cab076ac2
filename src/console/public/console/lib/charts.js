// @ts-check
import { h, s } from "./dom.js";

/**
 * Inline SVG charts, drawn from the numbers the API returned. Each chart is a figure with a caption;
 * the SVG has role="img" and a label summarising it, and every bar a <title> with its exact value.
 */

/** @typedef {{ label: string, value: number, text: string }} Bar */

/**
 * Horizontal bars, largest first (by model, provider, mode).
 * @param {string} caption
 * @param {Bar[]} bars
 */
export function barChart(caption, bars) {
  const sorted = [...bars].sort((a, b) => b.value - a.value);
  const rowH = 22;
  const labelW = 150;
  const width = 460;
  const max = Math.max(...sorted.map((b) => b.value), 0) || 1;
  const height = Math.max(1, sorted.length) * rowH + 4;
  const summary = sorted.length ? sorted.map((b) => `${b.label} ${b.text}`).join(", ") : "no data";
  const svg = s(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${caption}: ${summary}` },
    sorted.length === 0 ? s("text", { x: 4, y: 16 }, "No calls yet") : null,
    sorted.map((b, i) => {
      const y = i * rowH + 2;
      const w = Math.max(1, ((width - labelW - 90) * b.value) / max);
      return s(
        "g",
        {},
        s("title", {}, `${b.label}: ${b.text}`),
        s("text", { x: labelW - 6, y: y + 14, "text-anchor": "end" }, b.label.length > 22 ? b.label.slice(0, 21) + "…" : b.label),
        s("rect", { x: labelW, y: y + 3, width: w, height: rowH - 8, rx: 2, class: "a" }),
        s("text", { x: labelW + w + 4, y: y + 14 }, b.text),
      );
    }),
  );
  return h("figure", {}, h("figcaption", {}, caption), svg);
}

/**
 * Columns over time, one per day, on their own scale (spend per day; saved per day).
 * @param {string} caption
 * @param {{ date: string, value: number }[]} days
 * @param {(n: number) => string} fmt
 * @param {"a" | "b"} [series] the colour: "a" blue, "b" green
 */
export function dayChart(caption, days, fmt, series = "a") {
  const width = 460;
  const height = 150;
  const left = 84;
  const bottom = 20;
  const plotH = height - bottom - 8;
  const max = Math.max(...days.map((d) => d.value), 0);
  const scale = max > 0 ? plotH / max : 0;
  const slot = (width - left) / Math.max(1, days.length);
  const bw = Math.max(1, slot - 2);
  const total = days.reduce((t, d) => t + d.value, 0);
  const svg = s(
    "svg",
    { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${caption}: ${days.length} days from ${days[0]?.date ?? "-"} to ${days.at(-1)?.date ?? "-"}, ${fmt(total)} in all, at most ${fmt(max)} a day` },
    s("line", { x1: left, y1: 8 + plotH, x2: width, y2: 8 + plotH, stroke: "#767b8a" }),
    s("text", { x: left - 4, y: 14, "text-anchor": "end" }, fmt(max)),
    s("text", { x: left - 4, y: 8 + plotH, "text-anchor": "end" }, fmt(0)),
    days.map((d, i) => {
      const x = left + i * slot + 1;
      return s(
        "g",
        {},
        s("title", {}, `${d.date}: ${fmt(d.value)}`),
        s("rect", { x, y: 8 + plotH - d.value * scale, width: bw, height: d.value * scale, class: series }),
        i % Math.ceil(days.length / 5) === 0 ? s("text", { x, y: height - 4 }, d.date.slice(5)) : null,
      );
    }),
  );
  return h("figure", {}, h("figcaption", {}, caption), svg);
}
