/**
 * Path globs and command patterns, shared by the risk scorer (files against `protected_paths`,
 * commands against `forbidden_commands`) and by the readiness checks (does the manifest protect
 * `.env`? would it forbid `rm -rf /`?). Pure and deterministic.
 */
import ignore, { type Ignore } from "ignore";

/**
 * `./src/a.ts`, `/src/a.ts`, `src\a.ts` and `src/x/../a.ts` all name `src/a.ts`. A `..` that climbs
 * out of the workspace is dropped rather than kept, so `../.env` is still checked as `.env`.
 */
function normalizePath(path: string): string {
  const out: string[] = [];
  for (const segment of path.trim().replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out.join("/");
}

/**
 * One protected-path entry as an `ignore` rule. Matching is gitignore's (`*`, `?`, `[...]`, `**`,
 * `!` negation, a pattern without a slash matches at any depth), with two documented departures
 * (docs/governance.md): a leading `/` or `./` is dropped, so `/build` reads as `build`; and
 * `dir/**` also covers the path `dir` itself (deleting the directory touches what it protects).
 */
function ruleFor(pattern: string): { rule: string; self?: string } | undefined {
  const negated = pattern.startsWith("!");
  const p = (negated ? pattern.slice(1) : pattern).trim().replace(/^(\.?\/)+/, "");
  if (!p) return undefined;
  const bang = negated ? "!" : "";
  // `/dir` anchors the directory itself; it lives in a second matcher so that it cannot turn a
  // later `!dir/keep` into a no-op (gitignore cannot re-include below an excluded directory).
  return { rule: bang + p, self: p.endsWith("/**") && p.length > 3 ? `${bang}/${p.slice(0, -3)}` : undefined };
}

interface Matcher {
  rules: Ignore;
  selves: Ignore;
  /** Which entry of the list each rule came from, to name it in reasons. */
  source: Map<string, string>;
  uses: number;
}

/**
 * Matchers are cached per patterns array (a manifest's list is checked against every file of a
 * request). `ignore` memoises every path it has seen, so a matcher is rebuilt after REBUILD_AFTER
 * lookups: that bounds the memory of long-lived lists such as the risk scorer's secrets paths.
 */
const REBUILD_AFTER = 10_000;
const matchers = new WeakMap<readonly string[], Matcher>();

function matcherFor(patterns: readonly string[]): Matcher {
  let m = matchers.get(patterns);
  if (!m || m.uses >= REBUILD_AFTER) {
    // Case-insensitive, as `ignore` is by default: on macOS and Windows `.ENV` is the file `.env`,
    // and a protection list should rather protect too much than too little.
    m = { rules: ignore({ allowRelativePaths: true }), selves: ignore({ allowRelativePaths: true }), source: new Map(), uses: 0 };
    for (const pattern of patterns) {
      const r = ruleFor(pattern);
      if (!r) continue;
      m.rules.add(r.rule);
      if (!m.source.has(r.rule)) m.source.set(r.rule, pattern);
      if (r.self) {
        m.selves.add(r.self);
        if (!m.source.has(r.self)) m.source.set(r.self, pattern);
      }
    }
    matchers.set(patterns, m);
  }
  m.uses++;
  return m;
}

/**
 * The entry of `patterns` that protects the path, or undefined. As in a .gitignore, the last rule
 * that matches decides, so a later `!config/public.json` lifts an earlier `config/**`. Linear in
 * the lengths of path and patterns: `ignore` pins wildcards, so `a*a*a*…b` cannot backtrack.
 */
export function firstMatchingGlob(patterns: readonly string[], path: string): string | undefined {
  const p = normalizePath(path);
  if (!p || patterns.length === 0) return undefined;
  const m = matcherFor(patterns);
  const main = m.rules.test(p);
  // `selves` also matches below each directory (through the parent), which `dir/**` in `rules`
  // already decides; so it is asked only when no negation in `rules` explicitly re-included the path.
  const rule = main.rule ?? (main.unignored ? undefined : m.selves.test(p).rule);
  return rule ? (m.source.get(rule.pattern) ?? rule.pattern) : undefined;
}

export function matchesGlob(pattern: string, path: string): boolean {
  return firstMatchingGlob([pattern], path) !== undefined;
}

/** Lower case, single spaces, so `git  push   --FORCE` reads like `git push --force`. */
export function normalizeCommand(command: string): string {
  return command.trim().toLowerCase().replace(/\s+/g, " ");
}

/**
 * A forbidden entry matches a command that contains it at word boundaries: `rm -rf` forbids
 * `sudo rm -rf /tmp/x` but not `npm -rfoo`; `drop table` forbids `psql -c "DROP TABLE users"`.
 */
export function commandContains(command: string, forbidden: string): boolean {
  const needle = normalizeCommand(forbidden);
  if (!needle) return false;
  const hay = normalizeCommand(command);
  let from = 0;
  for (;;) {
    const at = hay.indexOf(needle, from);
    if (at < 0) return false;
    const before = at === 0 ? " " : hay[at - 1]!;
    const after = at + needle.length >= hay.length ? " " : hay[at + needle.length]!;
    if (!/[a-z0-9_-]/.test(before) && !/[a-z0-9_-]/.test(after)) return true;
    from = at + 1;
  }
}

export function firstForbiddenMatch(forbidden: readonly string[], command: string): string | undefined {
  return forbidden.find((f) => commandContains(command, f));
}
