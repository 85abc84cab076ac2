/**
 * Path globs and command patterns, shared by the risk scorer (files against `protected_paths`,
 * commands against `forbidden_commands`) and by the readiness checks (does the manifest protect
 * `.env`? would it forbid `rm -rf /`?). Pure and deterministic.
 */

/** `./src/a.ts`, `/src/a.ts` and `src\a.ts` all name `src/a.ts`. */
function normalizePath(path: string): string {
  return path.trim().replace(/\\/g, "/").replace(/^(\.\/)+/, "").replace(/^\/+/, "").replace(/\/{2,}/g, "/");
}

const globCache = new Map<string, RegExp>();

/**
 * Gitignore-like globs: `*` and `?` stay within one path segment, `**` crosses segments, a pattern
 * without a slash matches a name at any depth (`.env`, `*.pem`), and a pattern matches everything
 * below it when it names a directory (`migrations` and `migrations/` both protect `migrations/0001.sql`).
 */
function globToRegExp(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (re) return re;
  // `dir/`, `dir/**` and `dir` all protect the directory and everything below it.
  const p = normalizePath(pattern).replace(/\/(\*\*)?$/, "");
  const anchored = p.includes("/");
  let body = "";
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (ch === "*") {
      if (p[i + 1] === "*") {
        // `**/` matches zero or more whole segments; a bare `**` matches anything.
        if (p[i + 2] === "/") {
          body += "(?:.*/)?";
          i += 2;
        } else {
          body += ".*";
          i += 1;
        }
      } else body += "[^/]*";
    } else if (ch === "?") body += "[^/]";
    else body += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  re = new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}(?:/.*)?$`);
  globCache.set(pattern, re);
  return re;
}

export function matchesGlob(pattern: string, path: string): boolean {
  if (!pattern.trim()) return false;
  return globToRegExp(pattern).test(normalizePath(path));
}

/** The first pattern that matches the path, or undefined. */
export function firstMatchingGlob(patterns: readonly string[], path: string): string | undefined {
  return patterns.find((p) => matchesGlob(p, path));
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
