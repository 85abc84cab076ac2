import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAst } from "vitest/node";

/**
 * The layering rule of docs/architecture.md, enforced over the import statements of src/**\/*.ts.
 * The rank table is read from that page, so the page and the rule cannot drift apart.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");
const DOC = "docs/architecture.md";

/** Files at the top of src/ and their place: edge (may import anything) or base (rank 0). */
const ROOT_FILES: Record<string, "edge" | "base"> = { "app.ts": "edge", "index.ts": "edge", "env.ts": "base", "version.ts": "base" };
/** Files that may import Hono besides the edge: the validator routes use. */
const HONO_ALLOWED = new Set(["shared/validate.ts"]);
/** Type-only Hono imports allowed below the edge: a status-code type, no Context. */
const HONO_TYPE_ALLOWED = new Set(["shared/errors.ts hono/utils/http-status"]);

function layerTable(markdown: string): Map<string, number> {
  const table = new Map<string, number>();
  for (const m of markdown.matchAll(/^\|\s*(\d+)\s*\|\s*`([a-z][a-z0-9-]*)\/`\s*\|/gm)) table.set(m[2]!, Number(m[1]));
  return table;
}

const isEdge = (file: string) =>
  ROOT_FILES[file] === "edge" || /(^|\/)(routes|[a-z0-9-]+-routes)\.ts$/.test(file) || file === "auth/middleware.ts";

interface Import {
  file: string;
  line: number;
  specifier: string;
  typeOnly: boolean;
}

/** Every static, re-export, dynamic and `import("…")` type import of one module. */
function importsOf(file: string, source: string): Import[] {
  const ast = parseAst(source, { lang: "ts" }) as unknown as Node;
  const lineOf = (offset: number) => source.slice(0, offset).split("\n").length;
  const out: Import[] = [];
  walk(ast, (n) => {
    const src = n.source as Node | null | undefined;
    if (!src || typeof src.value !== "string") return;
    const kinds: Record<string, boolean> = {
      ImportDeclaration: n.importKind === "type",
      ExportNamedDeclaration: n.exportKind === "type",
      ExportAllDeclaration: n.exportKind === "type",
      ImportExpression: false,
      TSImportType: true,
    };
    if (!(n.type in kinds)) return;
    out.push({ file, line: lineOf(n.start as number), specifier: src.value, typeOnly: kinds[n.type]! });
  });
  return out;
}

type Node = { type: string; [k: string]: unknown };
function walk(n: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(n)) return n.forEach((c) => walk(c, visit));
  if (!n || typeof n !== "object") return;
  if (typeof (n as Node).type === "string") visit(n as Node);
  for (const v of Object.values(n)) if (v && typeof v === "object") walk(v, visit);
}

/** The folder (or root file) a src-relative path belongs to. */
const unitOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : path);

function violations(files: ReadonlyMap<string, string>, table: ReadonlyMap<string, number>): string[] {
  const problems: string[] = [];
  const rankOf = (unit: string): number | undefined => (ROOT_FILES[unit] === "base" ? 0 : table.get(unit));
  for (const file of [...files.keys()].sort()) {
    const unit = unitOf(file);
    if (!ROOT_FILES[unit] && !table.has(unit)) problems.push(`src/${unit}/ is not in the layer table of ${DOC}: give it a rank there (src/${file})`);
  }
  for (const [file, source] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const unit = unitOf(file);
    const from = rankOf(unit);
    for (const imp of importsOf(file, source)) {
      const at = `src/${file}:${imp.line} imports "${imp.specifier}"`;
      if (/^(hono|@hono\/)/.test(imp.specifier)) {
        const allowed = isEdge(file) || HONO_ALLOWED.has(file) || (imp.typeOnly && HONO_TYPE_ALLOWED.has(`${file} ${imp.specifier}`));
        if (!allowed) problems.push(`${at}: Hono stays at the edge (routes, middleware, app.ts); take plain arguments instead`);
        continue;
      }
      if (!imp.specifier.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), imp.specifier));
      if (target.startsWith("..")) continue; // outside src/, e.g. package.json
      const targetFile = /\.[a-z]+$/.test(target) ? target : `${target}.ts`;
      const to = unitOf(targetFile);
      if (to === unit) continue;
      if (isEdge(targetFile) && ROOT_FILES[unit] !== "edge") {
        problems.push(`${at}: ${targetFile} is an edge file (a router); only app.ts and index.ts import routers`);
        continue;
      }
      if (ROOT_FILES[unit] === "edge") continue;
      if (unit === "env.ts") {
        if (!imp.typeOnly) problems.push(`${at}: env.ts may import other folders for types only (use "import type")`);
        continue;
      }
      const toRank = rankOf(to);
      if (from === undefined || toRank === undefined) continue; // reported above as a missing folder
      if (toRank >= from) {
        const how = toRank === from ? "a sibling of the same rank" : "a higher layer";
        problems.push(`${at}: ${unit} (rank ${from}) may not import ${to} (rank ${toRank}, ${how}); see ${DOC}`);
      }
    }
  }
  return problems;
}

function sourceFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".d.ts")) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8"));
  }
  return files;
}

/**
 * Violations in folders whose owners are changing them now, listed so the suite stays green while
 * they are fixed. Each entry must still occur (a fixed one fails the last test until it is removed
 * here), and nothing outside the list may climb.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

describe("layering (docs/architecture.md)", () => {
  const table = layerTable(readFileSync(join(ROOT, DOC), "utf8"));
  const found = violations(sourceFiles(SRC), table);

  it("the table in docs/architecture.md places every existing and planned folder", () => {
    const planned = ["shared", "db", "catalog", "plans", "cost", "providers", "sandbox", "compliance", "routing", "brain", "proof", "limits", "usage", "auth", "calls",
      "audit", "chat", "skills", "health", "policy", "orchestrate", "handoff", "code", "workspace", "agents", "mcp", "console"];
    expect([...table.keys()].sort()).toEqual([...planned].sort());
    expect(table.get("shared")).toBe(0);
    for (const core of ["catalog", "cost", "proof", "providers", "sandbox", "compliance", "calls"]) expect(table.get(core)!).toBeLessThan(20);
    for (const area of ["chat", "skills", "orchestrate", "code", "agents", "workspace", "handoff", "policy", "audit", "mcp"]) expect(table.get(area)!).toBeGreaterThanOrEqual(20);
  });

  it("no lower layer imports a higher one, and Hono stays at the edge", () => {
    const fresh = found.filter((v) => !KNOWN_VIOLATIONS.includes(v));
    expect(fresh, `Imports that break the layering rule:\n  ${fresh.join("\n  ")}\n`).toEqual([]);
  });

  it("the list of known violations is current", () => {
    const fixed = KNOWN_VIOLATIONS.filter((v) => !found.includes(v));
    expect(fixed, "fixed: remove these from KNOWN_VIOLATIONS").toEqual([]);
  });
});

describe("the layering checker itself", () => {
  const table = new Map([["shared", 0], ["catalog", 2], ["calls", 11], ["chat", 20], ["skills", 20], ["policy", 21]]);
  const check = (files: Record<string, string>) => violations(new Map(Object.entries(files)), table);

  it("allows imports downward, within a folder, Hono in routers, anything in app.ts, and env.ts", () => {
    expect(check({
      "chat/complete.ts": 'import { a } from "../calls/x";\nimport { b } from "./local";\nimport type { Env } from "../env";',
      "calls/x.ts": 'import { c } from "../catalog/models";\nexport const a = 1;',
      "chat/routes.ts": 'import { Hono } from "hono";\nimport { complete } from "./complete";',
      "app.ts": 'import { chatRoutes } from "./chat/routes";\nimport { policyRoutes } from "./policy/routes";',
      "env.ts": 'import type { Ledger } from "./policy/ledger";',
    })).toEqual([]);
  });

  it("names the file, the line and the import of each climb, routers included", () => {
    expect(check({
      "catalog/models.ts": '\nimport type { Receipt } from "../calls/receipt";',
      "chat/a.ts": 'const m = await import("../skills/run");',
      "calls/b.ts": 'export * from "../chat/render";',
      "shared/c.ts": 'let t: import("../policy/risk").Risk;',
      "chat/routes.ts": 'import { checkPolicy } from "../policy/check";',
    })).toEqual([
      'src/calls/b.ts:1 imports "../chat/render": calls (rank 11) may not import chat (rank 20, a higher layer); see docs/architecture.md',
      'src/catalog/models.ts:2 imports "../calls/receipt": catalog (rank 2) may not import calls (rank 11, a higher layer); see docs/architecture.md',
      'src/chat/a.ts:1 imports "../skills/run": chat (rank 20) may not import skills (rank 20, a sibling of the same rank); see docs/architecture.md',
      'src/chat/routes.ts:1 imports "../policy/check": chat (rank 20) may not import policy (rank 21, a higher layer); see docs/architecture.md',
      'src/shared/c.ts:1 imports "../policy/risk": shared (rank 0) may not import policy (rank 21, a higher layer); see docs/architecture.md',
    ]);
  });

  it("flags routers imported below app.ts, Hono below the edge, value imports in env.ts and unplaced folders", () => {
    expect(check({
      "policy/check.ts": 'import { chatRoutes } from "../chat/routes";\nimport type { Context } from "hono";',
      "env.ts": 'import { LIMIT } from "./calls/limit";',
      "newarea/x.ts": "export const x = 1;",
    })).toEqual([
      "src/newarea/ is not in the layer table of docs/architecture.md: give it a rank there (src/newarea/x.ts)",
      'src/env.ts:1 imports "./calls/limit": env.ts may import other folders for types only (use "import type")',
      'src/policy/check.ts:1 imports "../chat/routes": chat/routes.ts is an edge file (a router); only app.ts and index.ts import routers',
      'src/policy/check.ts:2 imports "hono": Hono stays at the edge (routes, middleware, app.ts); take plain arguments instead',
    ]);
  });
});
