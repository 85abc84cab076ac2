import { findModel, type Tier } from "../catalog/models";
import { sha256Hex } from "../shared/hash";
import { SERVICE_VERSION } from "../version";
import { kvGet, kvPut, type Defer } from "./kv";
import { verdana11Width } from "./verdana";

/**
 * `GET /v1/brain/badge` (SPEC.md 4.8): a shields-style "flat" SVG, label on grey, the model's display
 * name on its tier's colour. It never fails: an unknown or missing model is a grey `unknown` badge,
 * so a README never shows a broken image. Both texts are user input inside SVG, so they are cleaned,
 * capped and XML-escaped.
 */

export const DEFAULT_LABEL = "BRAIN.md";
/** Longer texts are cut with an ellipsis: a badge is a word or two, and its width is user-chosen. */
export const MAX_BADGE_CHARS = 40;
export const BADGE_CACHE_CONTROL = "public, max-age=3600";
export const BADGE_KV_TTL_S = 3600;

export const TIER_COLORS: Readonly<Record<Tier, string>> = {
  budget: "#2da44e", // green
  mid: "#d97706", // amber
  premium: "#4f46e5", // indigo
  frontier: "#7c3aed", // violet
};
export const UNKNOWN_COLOR = "#9f9f9f";
const LABEL_COLOR = "#555";

/** Characters XML 1.0 forbids even escaped (C0 controls but tab/newline, DEL is only ugly), and lone surrogates. */
const NOT_XML = /[\u0000-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Cleans and caps one badge text (counted in code points). */
export function badgeText(raw: string): string {
  const text = raw.replace(/\s+/g, " ").replace(NOT_XML, "").trim();
  const chars = [...text];
  return chars.length <= MAX_BADGE_CHARS ? text : `${chars.slice(0, MAX_BADGE_CHARS - 1).join("").trimEnd()}…`;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** Pixel width a text takes, rounded up: what its half of the badge is sized to (plus padding). */
export const textWidth = (text: string) => Math.ceil(verdana11Width(text));
const PADDING = 5;

export interface BadgeSpec {
  label: string;
  value: string;
  color: string;
}

/** What the badge says for a `model` and `label` query, before rendering. */
export function badgeSpec(model: string | undefined, label: string | undefined): BadgeSpec {
  const found = model ? findModel(model.trim()) : undefined;
  return {
    label: badgeText(label ?? "") || DEFAULT_LABEL,
    value: found ? badgeText(found.display_name) : "unknown",
    color: found ? TIER_COLORS[found.tier] : UNKNOWN_COLOR,
  };
}

/**
 * The flat badge layout of shields.io: each half is its text's width plus 5 px a side; texts are set
 * at 10x scale (font-size 110 under scale(.1)) with `textLength` pinning the measured width, and a
 * 1 px darker copy under each as the shadow.
 */
export function renderBadge({ label, value, color }: BadgeSpec): string {
  const lw = textWidth(label);
  const vw = textWidth(value);
  const left = lw + 2 * PADDING;
  const right = vw + 2 * PADDING;
  const width = left + right;
  const l = escapeXml(label);
  const v = escapeXml(value);
  const text = (x: number, length: number, content: string) =>
    `<text aria-hidden="true" x="${x * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${length * 10}">${content}</text>` +
    `<text x="${x * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${length * 10}">${content}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${l}: ${v}">` +
    `<title>${l}: ${v}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${left}" height="20" fill="${LABEL_COLOR}"/><rect x="${left}" width="${right}" height="20" fill="${color}"/><rect width="${width}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(left / 2, lw, l) +
    text(left + right / 2, vw, v) +
    `</g></svg>`
  );
}

/** The KV key of a badge: the service version (a deploy may change the drawing) and the request's texts. */
export const badgeKvKey = (model: string | undefined, label: string | undefined) =>
  `brain-badge:v1:${SERVICE_VERSION}:${sha256Hex(`${model ?? ""}\n${label ?? ""}`)}`;

/** A strong validator over the exact bytes sent. */
export const badgeEtag = (svg: string) => `"${sha256Hex(svg).slice(0, 32)}"`;

/** The badge for a query: from KV when cached there, else drawn (and cached behind the response). */
export async function getBadge(deps: { kv: KVNamespace; defer: Defer }, model: string | undefined, label: string | undefined) {
  const key = badgeKvKey(model, label);
  let svg = await kvGet(deps.kv, key);
  if (svg === null) {
    svg = renderBadge(badgeSpec(model, label));
    deps.defer(kvPut(deps.kv, key, svg, BADGE_KV_TTL_S));
  }
  return { svg, etag: badgeEtag(svg) };
}

/** If-None-Match per RFC 9110 13.1.2: `*`, or any listed tag, compared weakly. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => bare(t) === bare(etag));
}
