import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** docs/conformance.md maps SPEC.md sections to test files; this keeps the map and the suite in step. */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const page = readFileSync(join(ROOT, "docs/conformance.md"), "utf8");
const named = new Set([...page.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1]!));
const suite = readdirSync(join(ROOT, "test"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
  .map((e) => relative(ROOT, join(e.parentPath, e.name)).split("\\").join("/"))
  .sort();

describe("docs/conformance.md", () => {
  it("names only test files that exist", () => {
    expect([...named].filter((f) => !suite.includes(f)).sort()).toEqual([]);
  });

  it("names every test file of the suite under the SPEC section it covers", () => {
    const unnamed = suite.filter((f) => !named.has(f));
    expect(unnamed, "add these to the SPEC-section table in docs/conformance.md").toEqual([]);
  });
});
