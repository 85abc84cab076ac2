import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, it } from "vitest";
import doc from "../../docs/agents.md?raw";
import { verifyBundle, type TrajectoryBundle } from "../../scripts/verify-trajectory.mjs";

/**
 * docs/agents.md's worked example, checked by the standalone verifier script and a SHA-256 library
 * only (nothing from src/), and every kind of tamper located by the script.
 */
const bundle = JSON.parse(/```json verify_request\n([\s\S]*?)\n```/.exec(doc)![1]!) as TrajectoryBundle;
const stated = (text: string) => new RegExp(text + "[\\s\\S]*?`(sha256:[0-9a-f]{64})`").exec(doc)![1]!;

describe("docs/agents.md: the worked example", () => {
  it("verifies with the standalone script, and each stated value is recomputable", () => {
    expect(verifyBundle(bundle)).toEqual({ valid: true, recomputed_proof: bundle.trajectory_proof, n_steps: 2, mismatched_steps: [] });
    expect(bundle.output_hash).toBe(`sha256:${bytesToHex(sha256(utf8ToBytes("Rotate keys; scan commits.")))}`);
    expect(stated("- `step_proof\\[0\\]`")).toBe(bundle.step_proofs![0]);
    const leaf = (h: string) => sha256(new Uint8Array([0, ...hexToBytes(h.slice(7))]));
    const root = `sha256:${bytesToHex(sha256(new Uint8Array([1, ...leaf(bundle.step_proofs![0]!), ...leaf(bundle.step_proofs![1]!)])))}`;
    expect(stated("- `merkle_root`")).toBe(root);
    expect(verifyBundle({ ...bundle, output_hash: undefined, output: "Rotate keys; scan commits." }).valid).toBe(true);
  });

  it("locates a change to any field of any step, a changed proof, reorders, deletions and insertions", () => {
    for (const i of [0, 1]) {
      for (const field of ["index", "model", "input_hash", "output_hash", "cost_usd", "confidence", "timestamp"] as const) {
        const t = structuredClone(bundle);
        const step = t.steps[i]! as Record<string, unknown>;
        step[field] = typeof step[field] === "number" ? (step[field] as number) + 1 : field.endsWith("hash") ? `sha256:${"e".repeat(64)}` : `${step[field]}x`;
        const r = verifyBundle(t);
        expect(r.valid, `${field} of step ${i}`).toBe(false);
        expect(r.mismatched_steps[0], `${field} of step ${i}`).toBe(i);
      }
    }
    const proof = structuredClone(bundle);
    proof.step_proofs![0] = `sha256:${"1".repeat(64)}`;
    expect(verifyBundle(proof).mismatched_steps).toEqual([0, 1]);
    const swapped = structuredClone(bundle);
    swapped.steps.reverse();
    expect(verifyBundle(swapped).mismatched_steps).toEqual([0, 1]);
    const deleted = structuredClone(bundle);
    deleted.steps.splice(0, 1);
    expect(verifyBundle(deleted)).toMatchObject({ valid: false, mismatched_steps: [0, 1] });
    const inserted = structuredClone(bundle);
    inserted.steps.push({ ...inserted.steps[1]!, index: 2 });
    expect(verifyBundle(inserted)).toMatchObject({ valid: false, mismatched_steps: [2] });
    // Without step proofs a tamper is still detected, though not located.
    const t = structuredClone(bundle);
    delete t.step_proofs;
    t.steps[0]!.cost_usd = 0;
    expect(verifyBundle(t)).toMatchObject({ valid: false, mismatched_steps: [] });
  });
});
