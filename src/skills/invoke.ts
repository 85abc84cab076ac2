import { z } from "zod";
import type { ChatInput } from "../calls/chat";
import { findModel, MODELS, type Model } from "../catalog/models";
import { callCompliance } from "../compliance/chat-gate";
import { eligible, type Eligibility } from "../cost/guard";
import type { SvcExtend } from "../calls/render";
import type { Plan } from "../plans/plans";
import type { ChatMessage } from "../providers/types";
import { AUTO_MODES, brainConfigSchema } from "../routing/brain-config";
import { DEFAULT_TEMPERATURE, MAX_TOKENS_CEILING } from "../routing/request-schema";
import { getSkill } from "./catalog";
import { capabilityRule } from "./capabilities";
import { intensityRule, isIntensityId, type IntensityReport } from "./intensity";

/**
 * A skill invocation (SPEC.md 4.9) as a chat call: the skill's body is the system message and
 * `task` the user message; everything else is the chat pipeline of src/calls, unchanged. REST
 * routes and MCP tools build the call here and hand `input` to completeChat or streamChat.
 */

/**
 * SPEC.md 4.9 says max_tokens defaults to "the model's limit". The catalog carries no per-model
 * output limit, and the worst-case cost guard prices whatever budget is asked for, so the default
 * is a fixed budget that fits the longest output format of the library (a full review or
 * postmortem) and that every catalog model accepts: 4096.
 */
export const SKILL_DEFAULT_MAX_TOKENS = 4096;

// Strict, unlike chat's OpenAI-compatible body: this body is ours, so a misspelt field (`prompt`
// for `task`) is a 400 that names it rather than a silently ignored key.
export const invokeRequestSchema = z
  .strictObject({
    task: z.string().refine((s) => s.trim().length > 0, { message: "task must be a non-empty string" }),
    model: z.string().trim().min(1).optional(),
    routing_mode: z.enum(AUTO_MODES).optional(),
    max_tokens: z.int().min(1).max(MAX_TOKENS_CEILING).optional(),
    temperature: z.number().min(0).max(2).optional(),
    stream: z.boolean().optional(),
    brain_config: brainConfigSchema.nullish(),
  })
  .transform((body) => ({
    ...body,
    model: body.model ?? "auto",
    max_tokens: body.max_tokens ?? SKILL_DEFAULT_MAX_TOKENS,
    temperature: body.temperature ?? DEFAULT_TEMPERATURE,
    stream: body.stream ?? false,
    brain_config: body.brain_config ?? undefined,
  }));

export type InvokeRequest = z.output<typeof invokeRequestSchema>;

export interface SkillCall {
  input: ChatInput;
  /** Adds `svc.skill` (and `svc.intensity` for an intensity id) to the completion's svc block. */
  extendSvc: SvcExtend;
}

export interface SkillCallContext {
  requestId: string;
  /** performance.now() when the request entered the Worker. */
  startedAt: number;
  plan: Plan;
}

/**
 * The chat call of one invocation. Throws 404 `skill_not_found` for an unknown id, and what chat's
 * compliance gate throws (400 for a bad policy, 422 `no_compliant_model`).
 */
export function skillCall(skillId: string, body: InvokeRequest, ctx: SkillCallContext): SkillCall {
  const skill = getSkill(skillId);
  const messages: ChatMessage[] = [
    { role: "system", content: skill.raw },
    { role: "user", content: body.task },
  ];
  // Chat's gate, unchanged: every message is classified (the skill texts themselves carry no data
  // class, which the library test checks) and the policy becomes a requirement routing never relaxes.
  const compliance = callCompliance(body.brain_config, messages, ctx.plan.models);
  const allowed = ctx.plan.models;
  const admitted = (m: Model, rules: readonly Eligibility[]) =>
    (allowed === null || allowed.includes(m.id)) && (!compliance || compliance.requirement(m) === null) && eligible(m, rules);

  let model = body.model;
  const rules: Eligibility[] = [];
  let intensity: IntensityReport | undefined;
  if (isIntensityId(model)) {
    const rule = intensityRule(model, MODELS.filter((m) => admitted(m, [])));
    // An intensity is not a model: routing chooses among the intensity's tiers as it does for auto.
    model = "auto";
    if (rule.eligibility) rules.push(rule.eligibility);
    intensity = rule.report;
  }
  // A pinned catalog model is the caller's choice and stays so; routed calls honour the skill's needs.
  if (!findModel(model)) {
    const needs = capabilityRule(skill.id, skill.capabilities, MODELS.filter((m) => admitted(m, rules)));
    if (needs) rules.push(needs);
  }
  const input: ChatInput = {
    requestId: ctx.requestId,
    // The concrete path, so receipts and usage rows name the skill that ran.
    endpoint: `/v1/skills/${skill.id}/invoke`,
    startedAt: ctx.startedAt,
    messages,
    model,
    routingMode: body.routing_mode,
    brainConfig: body.brain_config,
    maxTokens: body.max_tokens,
    temperature: body.temperature,
    eligibility: rules.length ? rules : undefined,
    requirements: compliance ? [compliance.requirement] : undefined,
  };
  const svcSkill = { id: skill.id, name: skill.name, source: skill.source };
  return {
    input,
    extendSvc: (svc) => ({
      ...svc,
      ...(compliance ? { compliance: compliance.decision } : {}),
      skill: svcSkill,
      ...(intensity ? { intensity } : {}),
    }),
  };
}
