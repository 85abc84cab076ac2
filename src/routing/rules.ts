import type { Signal, BrainRule } from "./types";

/**
 * brain_config rule matching (docs/routing.md, "Rules"). A rule matches when every condition it
 * gives holds; a list in `signal` or `contains` holds when any of its items does. Text conditions
 * look at the last user message, the same text the signals are read from.
 */

const asList = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

export function ruleMatches(rule: BrainRule, signals: Record<Signal, boolean>, text: string, lower: () => string): boolean {
  const when = rule.when ?? {};
  const wanted = asList(when.signal);
  if (wanted && !wanted.some((s) => signals[s])) return false;
  if (when.min_chars !== undefined && text.length < when.min_chars) return false;
  if (when.max_chars !== undefined && text.length > when.max_chars) return false;
  const needles = asList(when.contains);
  if (needles) {
    const haystack = lower();
    if (!needles.some((needle) => haystack.includes(needle.toLowerCase()))) return false;
  }
  return true;
}

/** Index of the first matching rule (first match wins), or -1. */
export function firstMatchingRule(rules: readonly BrainRule[] | undefined, signals: Record<Signal, boolean>, text: string): number {
  if (!rules?.length) return -1;
  // Lowercased once, and only when some rule asks for `contains`.
  let lowered: string | undefined;
  const lower = () => (lowered ??= text.toLowerCase());
  return rules.findIndex((rule) => ruleMatches(rule, signals, text, lower));
}

/** Plain words for a rule's conditions, for the decision's reason. */
export function describeRule(rule: BrainRule): string {
  const when = rule.when ?? {};
  const parts: string[] = [];
  const signals = asList(when.signal);
  if (signals) parts.push(`signal ${signals.join(" or ")}`);
  const needles = asList(when.contains);
  if (needles) parts.push(`text contains ${needles.map((n) => JSON.stringify(n)).join(" or ")}`);
  if (when.min_chars !== undefined) parts.push(`at least ${when.min_chars} characters`);
  if (when.max_chars !== undefined) parts.push(`at most ${when.max_chars} characters`);
  return parts.length ? parts.join(", ") : "always";
}
