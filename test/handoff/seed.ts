import { env } from "cloudflare:test";
import { db } from "../../src/db/client";
import { handoffs } from "../../src/db/schema";
import { rowFromSubject, SUBJECT_VERSION, subjectHash, subjectText, type HandoffRow, type HandoffSubject } from "../../src/handoff/subject";
import { newId } from "../../src/shared/ids";
import { signerFrom } from "../../src/shared/signing";

/**
 * Writes a long, valid, signed chain straight into D1 in batches of 100 rows: appending thousands of
 * entries one by one through the ledger would take a minute. Each entry is built with the ledger's own
 * subject code and signed with the test key, so the chain verifies exactly like one the ledger wrote.
 * The ledger object has no tip for it yet: its next append continues from the last row in D1.
 */
export async function seedChain(ownerId: string, workspaceId: string, n: number): Promise<HandoffRow[]> {
  const signer = signerFrom(env.LEDGER_SIGNING_KEY)!;
  const rows: HandoffRow[] = [];
  const start = Date.now() - n;
  let prev: HandoffRow | null = null;
  for (let seq = 0; seq < n; seq++) {
    const s: HandoffSubject = {
      version: SUBJECT_VERSION,
      id: newId("ho_"),
      workspace_id: workspaceId,
      seq,
      objective: `seeded step ${seq}: hand the parser work to the next agent`,
      from_tool: "planner",
      to_tool: "coder",
      files_touched: [`src/part-${seq % 17}.ts`, "README.md"],
      constraints: ["keep the public API"],
      risks: [],
      validation: [{ id: "v1", description: "npm test" }],
      recommended_next_action: "review the diff",
      action_kind: "edit",
      est_cost: 0.01,
      risk: { score: 10, tier: "auto", factors: [] },
      created_at: new Date(start + seq).toISOString(),
      prev_handoff_id: prev?.id ?? null,
      prev_hash: prev?.hash ?? null,
      prev_signature: prev?.signature ?? null,
      signing_key_id: signer.keyId,
    };
    const subject = subjectText(s);
    prev = rowFromSubject(ownerId, s, subject, subjectHash(subject), await signer.sign(subject));
    rows.push(prev);
  }
  const database = db(env.DB);
  for (let i = 0; i < rows.length; i += 100) {
    const batch = rows.slice(i, i + 100).map((r) => database.insert(handoffs).values(r));
    await database.batch(batch as [(typeof batch)[number], ...typeof batch]);
  }
  return rows;
}
