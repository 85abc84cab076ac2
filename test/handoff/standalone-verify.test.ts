import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { beforeAll, describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";

/**
 * A third party's verifier, written from docs/ledger.md alone: no import from src/. It checks the
 * chain the API returns with the key GET /v1/proof/pubkey publishes.
 */
ed.hashes.sha512 = sha512;

const canon = (v: unknown): string =>
  v === null || typeof v !== "object"
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canon).join(",")}]`
      : `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(",")}}`;

const FIELDS = ["id", "workspace_id", "seq", "objective", "from_tool", "to_tool", "files_touched", "constraints", "risks",
  "validation", "recommended_next_action", "action_kind", "est_cost", "created_at", "prev_handoff_id", "prev_hash",
  "prev_signature", "signing_key_id"];

function firstBroken(data: any[], pub: { key_id: string; public_key_hex: string }): number | null {
  for (const [i, e] of data.entries()) {
    const subject = canon({ version: "handoff-v1", risk: { score: e.risk.score, tier: e.risk.tier, factors: e.risk.factors }, ...Object.fromEntries(FIELDS.map((f) => [f, e[f]])) });
    const prev = data[i - 1];
    const ok =
      subject === e.subject &&
      "sha256:" + bytesToHex(sha256(utf8ToBytes(subject))) === e.hash &&
      e.seq === i &&
      e.prev_handoff_id === (prev?.id ?? null) &&
      e.prev_hash === (prev?.hash ?? null) &&
      e.prev_signature === (prev?.signature ?? null) &&
      (e.signing_key_id === null
        ? e.signature === null
        : e.signing_key_id === pub.key_id && ed.verify(hexToBytes(e.signature), utf8ToBytes(subject), hexToBytes(pub.public_key_hex)));
    if (!ok) return i;
  }
  return null;
}

let data: any[];
let checkpoint: any;
let pub: { key_id: string; public_key_hex: string };

beforeAll(async () => {
  const { key } = await newKey();
  await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-3p", protected_paths: [".env"] } });
  const bodies = [
    { objective: "Set up CI ✓ with ünïcode and \"quotes\"", action_kind: "setup", est_cost: 0.1 },
    { objective: "Rotate keys", files_touched: [".env"], risks: [{ id: "r1", description: "downtime" }], from_tool: "agent-a", to_tool: "human" },
    { objective: "Deploy", action_kind: "deploy", validation: [{ id: "v1", description: "smoke test" }], constraints: ["after 18:00"], est_cost: 12.5 },
  ];
  for (const b of bodies) expect((await call("/v1/handoff", { key, json: { workspace_id: "ws-3p", ...b } })).status).toBe(200);
  const chain = await call("/v1/handoff/chain/ws-3p", { key });
  data = chain.json.data;
  checkpoint = chain.json.checkpoint;
  pub = (await call(new URL(chain.json.pubkey_endpoint).pathname)).json;
});

describe("independent verification from docs/ledger.md", () => {
  it("verifies the chain the service returns", () => {
    expect(data).toHaveLength(3);
    expect(data.every((e) => e.signed)).toBe(true);
    expect(firstBroken(data, pub)).toBeNull();
  });

  it("checks the signed checkpoint against the copy: count, last hash, signature", () => {
    const { version, workspace_id, count, last_id, last_hash } = checkpoint;
    const subject = canon({ version, workspace_id, count, last_id, last_hash });
    expect(subject).toBe(checkpoint.subject);
    expect(version).toBe("handoff-checkpoint-v1");
    expect("sha256:" + bytesToHex(sha256(utf8ToBytes(subject)))).toBe(checkpoint.hash);
    expect(checkpoint.signing_key_id).toBe(pub.key_id);
    expect(ed.verify(hexToBytes(checkpoint.signature), utf8ToBytes(subject), hexToBytes(pub.public_key_hex))).toBe(true);
    expect([count, last_id, last_hash]).toEqual([data.length, data.at(-1).id, data.at(-1).hash]);
    // A copy missing its last entry no longer matches the checkpoint.
    expect(data.slice(0, -1).at(-1).hash).not.toBe(last_hash);
  });

  it.each<[string, (d: any[]) => void, number]>([
    ["an edited objective", (d) => { d[1].objective += "!"; }, 1],
    ["an edited risk score", (d) => { d[2].risk.score += 1; }, 2],
    ["an edited est_cost", (d) => { d[0].est_cost = 0.2; }, 0],
    ["a consistent rewrite without the key", (d) => {
      d[2].objective = "forged";
      const { subject: _s, hash: _h, signature: _g, signed: _x, object: _o, ...rest } = d[2];
      d[2].subject = canon({ version: "handoff-v1", ...rest });
      d[2].hash = "sha256:" + bytesToHex(sha256(utf8ToBytes(d[2].subject)));
    }, 2],
    ["a deleted entry", (d) => { d.splice(1, 1); }, 1],
    ["two entries swapped", (d) => { [d[0], d[1]] = [d[1], d[0]]; }, 0],
    ["a different public key", () => { pub = { ...pub, public_key_hex: bytesToHex(ed.getPublicKey(new Uint8Array(32).fill(7))) }; }, 0],
  ])("locates %s", (_name, tamper, index) => {
    const copy = structuredClone(data);
    const savedPub = pub;
    tamper(copy);
    expect(firstBroken(copy, pub)).toBe(index);
    pub = savedPub;
  });
});
