import { Hono } from "hono";
import type { AppEnv } from "../env";
import { apiError, invalidRequest } from "../shared/errors";
import { signerFrom } from "../shared/signing";
import { validate } from "../shared/validate";
import { signAttestation } from "./attestation";
import { previewCompliance, previewPolicy, previewRequestSchema, previewText } from "./preview";

/**
 * POST /v2/compliance/preview (key required, SPEC.md 5.6): the gate's dry run. No model is called,
 * nothing is billed, and no provider key is needed.
 */
export const complianceRoutes = new Hono<AppEnv>().post("/v2/compliance/preview", validate("json", previewRequestSchema), async (c) => {
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
    const signed = await signAttestation(attestation, signerFrom(c.env.LEDGER_SIGNING_KEY));
    result.sample_attestation = signed.hash;
  }
  return c.json(result);
});
