import { Hono } from "hono";
import type { AppEnv, Env } from "../env";
import { apiError, invalidRequest } from "../shared/errors";
import { validate } from "../shared/validate";
import type { AttestationFacts } from "./attestation";
import { previewCompliance, previewPolicy, previewRequestSchema, previewText } from "./preview";

/**
 * What the preview needs from the receipt store. The store (the write-behind buffer of src/calls/)
 * sits above this core, so app.ts hands its recorder in rather than this router reaching up to it.
 * The recorder seals the attestation and keeps it off the request path; it answers the proof hash.
 */
export interface ComplianceRouteDeps {
  recordAttestation(req: { env: Env; ownerId: string; waitUntil(p: Promise<unknown>): void }, facts: AttestationFacts): { proofHash: string };
}

/**
 * POST /v2/compliance/preview (key required, SPEC.md 5.6): the gate's dry run. No model is called,
 * nothing is billed, and no provider key is needed. The sample attestation is signed and stored
 * under the request's id after the response, so GET /v1/proof/{x-request-id} verifies it within a
 * second (docs/storage.md).
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
      const kept = deps.recordAttestation({ env: c.env, ownerId: c.get("apiKey").ownerId, waitUntil: (p) => c.executionCtx.waitUntil(p) }, attestation);
      result.sample_attestation = kept.proofHash;
    }
    return c.json(result);
  });
