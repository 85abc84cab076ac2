import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Rows of the README's table of SPEC areas: section number to its state cell. */
function readmeAreas(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of read("README.md").split("\n")) {
    const m = /^\| (4\.\d+) \| [^|]+ \| ([^|]+) \|$/.exec(line);
    if (m) rows.set(m[1]!, m[2]!.trim());
  }
  return rows;
}

/** Whether docs/conformance.md has a section-4 row for the section that says "not built". */
function conformanceSaysNotBuilt(section: string): boolean {
  // The first cell may name several sections ("4.2 orchestrate, 4.3 code"); 4.1 is not 4.10.
  const named = new RegExp(`(?<![\\d.])${section.replace(".", "\\.")}(?!\\d)`);
  return read("docs/conformance.md")
    .split("\n")
    .some((line) => line.startsWith("| 4.") && named.test(line.split("|")[1]!) && line.includes("not built"));
}

// The README tells a newcomer what exists; conformance.md is kept honest by its own test.
describe("README: the table of SPEC areas", () => {
  it("names every endpoint section 4.1 to 4.12 once", () => {
    expect([...readmeAreas().keys()]).toEqual(Array.from({ length: 12 }, (_, i) => `4.${i + 1}`));
  });

  it.each([...readmeAreas()])("4.x %s: says 'not built' exactly when docs/conformance.md does", (section, state) => {
    expect(state.includes("not built"), `README says "${state}"`).toBe(conformanceSaysNotBuilt(section));
  });
});
