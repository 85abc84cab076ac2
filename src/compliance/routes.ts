import { Hono } from "hono";
import { db, type Db } from "../db/client";
import type { AppEnv } from "../env";
import { apiError, invalidRequest } from "../shared/errors";
import { signerFrom, type Signer } from "../shared/signing";
import { validate } from "../shared/validate";
import type { AttestationFacts } from "./attestation";
import { previewCompliance, previewPolicy, previewRequestSchema, previewText } from "./preview";

/**
 * What the preview needs from the receipt store. The store (src/proof/) sits above this core, so
 * app.ts hands its recorder in rather than this router reaching up to it.
 */
export interface ComplianceRouteDeps {
  recordAttestation(database: Db, ownerId: string, facts: AttestationFacts, signer: Signer | null): Promise<{ proofHash: string }>;
}

/**
 * POST /v2/compliance/preview (key required, SPEC.md 5.6): the gate's dry run. No model is called,
 * nothing is billed, and no provider key is needed. The sample attestation is signed and stored
 * under the request's id, so GET /v1/proof/{x-request-id} verifies it.
 */
export const complianceRoutes = (deps: ComplianceRouteDeps) =>
  new Hono<AppEnv>().post("/v2/compliance/preview", validate("json", previewRequestSchema), async (c) => {
    const req = c.req.valid("json");
    const policy = previewPolicy(req);
    if (!policy.ok) {
      throw invalidRequest(`Invalid compliance policy: ${policy.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, policy.issues);
    }
    const text = previewText(req);
    if (text === null) {
      throw apiError("unprocessable_request", "Nothing to classify: give a non-empty `prompt`, or `messages` with a user message that has text.");
    }
    const { result, attestation } = previewCompliance(text, policy.policy, { requestId: c.get("requestId"), timestamp: new Date().toISOString() });
    if (result.active && attestation) {
      const signed = await deps.recordAttestation(db(c.env.DB), c.get("apiKey").ownerId, attestation, signerFrom(c.env.LEDGER_SIGNING_KEY));
      result.sample_attestation = signed.proofHash;
    }
    return c.json(result);
  });
