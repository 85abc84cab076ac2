// @ts-check
/** DOM helpers: every text goes in as a text node, so nothing from the API is ever parsed as HTML. */

/** @typedef {Node | string | number | null | undefined | false | Child[]} Child */

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(typeof c === "object" ? c : String(c));
  }
}

/**
 * @param {Element} el
 * @param {Record<string, unknown>} attrs
 */
function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === "value" && "value" in el) /** @type {HTMLInputElement} */ (el).value = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS("http://www.w3.org/2000/svg", tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** @param {Element} el @param {...Child} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** @param {number} n */
export const usd = (n) => `$${n < 0.01 && n > 0 ? n.toPrecision(3) : n.toFixed(n >= 100 ? 0 : 4)}`;
/** @param {number} n */
export const int = (n) => n.toLocaleString("en-US");
/** @param {string | null | undefined} iso */
export const when = (iso) => (iso ? new Date(iso).toISOString().replace("T", " ").slice(0, 19) + " UTC" : "never");
/** A hash shortened for display, the full form in its title. @param {string | null | undefined} hash */
export const shortHash = (hash) => (hash ? h("span", { class: "mono", title: hash }, hash.replace(/^(sha256:)?(.{12}).*$/, "$1$2…")) : "—");

/**
 * A labelled form control: the label's for= names the control's id.
 * @param {string} label
 * @param {HTMLElement} control
 */
export function field(label, control) {
  if (!control.id) control.id = `f-${Math.random().toString(36).slice(2, 9)}`;
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control);
}

/** A table from header cells and rows of cells. @param {string[]} head @param {Child[][]} rows @param {string} [caption] */
export function table(head, rows, caption) {
  return h(
    "table",
    {},
    caption ? h("caption", { class: "visually-hidden" }, caption) : null,
    h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col", class: /^(cost|latency|tokens|requests|steps|score|#)/i.test(c) ? "num" : null }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c))))),
  );
}

/** Shows an error in a box (a failed request of one part of a page does not blank the page). @param {Element} box @param {unknown} e */
export function fail(box, e) {
  replace(box, h("p", { class: "error", role: "alert" }, e instanceof Error ? e.message : String(e)));
}
