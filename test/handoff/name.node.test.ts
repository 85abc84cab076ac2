import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ledgerName, parseLedgerName } from "../../src/handoff/name";

/** Issue 16: owner `org` + workspace `team:ws` and owner `org:team` + workspace `ws` shared one ledger. */
const SEPARATORS = [":", "/", "|", ",", ".", "_", "@", "+", "=", "-", "\\", '"', "[", "]", " ", "\u0000", "%", "\u2028"];

describe("ledger object names", () => {
  it.each(SEPARATORS)("moving %j between owner and workspace gives another name", (s) => {
    const names = new Set([
      ledgerName("org", `team${s}ws`),
      ledgerName(`org${s}team`, "ws"),
      ledgerName(`org${s}`, "team"),
      ledgerName("org", `${s}team`),
      ledgerName(`org${s}team${s}ws`, ""),
      ledgerName("", `org${s}team${s}ws`),
    ]);
    expect(names.size).toBe(6);
  });

  it("is injective: two different (owner, workspace) pairs never share a name", () => {
    const part = fc.string({ unit: fc.constantFrom("a", ":", '"', "\\", ",", "[", "]", "x", "\u0000") });
    fc.assert(
      fc.property(part, part, part, part, (o1, w1, o2, w2) => {
        fc.pre(o1 !== o2 || w1 !== w2);
        expect(ledgerName(o1, w1)).not.toBe(ledgerName(o2, w2));
      }),
      { numRuns: 2000 },
    );
  });

  it("reads the identity back from the name, and refuses anything else", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (ownerId, workspaceId) => {
      expect(parseLedgerName(ledgerName(ownerId, workspaceId))).toEqual({ ownerId, workspaceId });
    }));
    for (const bad of ["org:ws", '["a"]', '["a","b","c"]', '[1,"b"]', '[ "a","b"]', "", "null"]) expect(() => parseLedgerName(bad)).toThrow(/not a ledger name/);
  });
});
