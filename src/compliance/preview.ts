import { z } from "zod";
import { isObject } from "../shared/data";
import type { ValidationIssue } from "../shared/errors";
import { classify, type Classification } from "./classify";
import { applyGate, costPremium, gateDecision, type CostPremium, type GateDecision } from "./gate";
import { MATRIX_VERSION, type DataClass } from "./matrix";
import { compliancePolicySchema, INERT_POLICY, type CompiledPolicy } from "./policy";
import type { AttestationFacts } from "./attestation";

/**
 * POST /v2/compliance/preview as a plain function (SPEC.md 2.18, 4.10): classify, gate, price the
 * premium, and name the facts of the sample attestation. It calls no model and needs no provider key;
 * the route signs (and stores) the attestation and renders the result.
 */

const messageSchema = z.looseObject({
  role: z.string().max(64),
  content: z.union([z.string(), z.array(z.unknown()), z.null()]).optional(),
});

export const previewRequestSchema = z.strictObject({
  prompt: z.string().optional(),
  messages: z.array(messageSchema).max(10_000).optional(),
  compliance: z.unknown().optional(),
  brain_config: z.unknown().optional(),
});

export type PreviewRequest = z.infer<typeof previewRequestSchema>;

/** OpenAI content is a string or a list of parts; the text parts are what a model reads. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** `prompt` when it has text, else the last `user` message that has text (SPEC.md 4.10); null when neither. */
export function previewText(req: PreviewRequest): string | null {
  if (req.prompt !== undefined && req.prompt.trim() !== "") return req.prompt;
  for (const m of [...(req.messages ?? [])].reverse()) {
    if (m.role !== "user") continue;
    const text = contentText(m.content);
    if (text.trim() !== "") return text;
  }
  return null;
}

export type PolicyResult = { ok: true; policy: CompiledPolicy; source: "compliance" | "brain_config" | "none" } | { ok: false; issues: ValidationIssue[] };

/** `compliance` when given, else `brain_config.compliance`, else the inert policy. */
export function previewPolicy(req: Pick<PreviewRequest, "compliance" | "brain_config">): PolicyResult {
  let raw: unknown;
  let source: "compliance" | "brain_config";
  let prefix: string;
  if (req.compliance !== undefined && req.compliance !== null) {
    [raw, source, prefix] = [req.compliance, "compliance", "compliance"];
  } else if (isObject(req.brain_config) && req.brain_config.compliance !== undefined && req.brain_config.compliance !== null) {
    [raw, source, prefix] = [req.brain_config.compliance, "brain_config", "brain_config.compliance"];
  } else {
    return { ok: true, policy: INERT_POLICY, source: "none" };
  }
  const parsed = compliancePolicySchema.safeParse(raw);
  if (parsed.success) return { ok: true, policy: parsed.data, source };
  return { ok: false, issues: parsed.error.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].join("."), message: i.message })) };
}

export interface ActivePreview extends Classification {
  active: true;
  ok: boolean;
  policy: CompiledPolicy;
  allowed_models: string[];
  excluded_models: Record<string, string[]>;
  compliance_cost_premium: CostPremium;
  decision: GateDecision;
  sample_attestation?: string;
  matrix_version: string;
}

export interface InertPreview extends Classification {
  active: false;
  note: string;
}

export const INERT_NOTE =
  "No compliance policy is active (every field empty or omitted): all models are eligible. Only the classification is returned.";

export interface PreviewPlan {
  result: ActivePreview | InertPreview;
  /** The facts to sign for the cheapest compliant model; null when inert or nothing is compliant. */
  attestation: AttestationFacts | null;
}

export function previewCompliance(text: string, policy: CompiledPolicy, at: { requestId: string; timestamp: string }): PreviewPlan {
  const classification = classify(text);
  if (!policy.active) {
    return { result: { active: false, ...classification, note: INERT_NOTE }, attestation: null };
  }
  const detected: DataClass[] = classification.detected_classes;
  const gate = applyGate(policy, detected);
  const premium = costPremium(gate.allowed);
  const ok = gate.allowed.length > 0;
  const result: ActivePreview = {
    active: true,
    ok,
    policy,
    ...classification,
    allowed_models: gate.allowed.map((m) => m.id),
    excluded_models: gate.excluded,
    compliance_cost_premium: premium,
    decision: gateDecision(policy, detected, gate),
    matrix_version: MATRIX_VERSION,
  };
  const attestation: AttestationFacts | null = ok
    ? { policy, detected_classes: detected, model: premium.cheapest_compliant!, matrix_version: MATRIX_VERSION, timestamp: at.timestamp, request_id: at.requestId }
    : null;
  return { result, attestation };
}
