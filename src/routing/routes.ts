import { Hono } from "hono";
import { callCompliance } from "../compliance/chat-gate";
import { costUsd } from "../cost/money";
import type { AppEnv } from "../env";
import { PLANS } from "../plans/plans";
import { validate } from "../shared/validate";
import { routeRequest } from "./request-route";
import { chatRequestSchema } from "./request-schema";

/**
 * POST /v1/route (SPEC.md 4.12): the routing preview. The same body as chat and the same decision
 * (routeRequest: capabilities, n, images), so it never previews a model chat would refuse; no model is called.
 */
export const routingRoutes = new Hono<AppEnv>().post("/v1/route", validate("json", chatRequestSchema), (c) => {
  const body = c.req.valid("json");
  const plan = PLANS[c.get("apiKey").plan];
  const compliance = callCompliance(body.brain_config, body.messages, plan.models);
  const decision = routeRequest({
    messages: body.messages,
    options: body.options,
    model: body.model,
    routingMode: body.routing_mode,
    brainConfig: body.brain_config,
    allowedModels: plan.models,
    maxTokens: body.max_tokens,
    ...(compliance ? { requirements: [compliance.requirement] } : {}),
  });
  const chosen = decision.candidates[0]!;
  const promptTokens = decision.estimated_prompt_tokens;
  const completionTokens = body.max_tokens * (body.options?.n ?? 1);
  return c.json({
    object: "route",
    model: chosen.id,
    svc: {
      routing: {
        mode: decision.mode,
        model: chosen.id,
        model_display: chosen.display_name,
        provider: chosen.provider,
        tier: decision.tier,
        reason: decision.reason,
        signals_detected: decision.signals_detected,
        // Why: the classifier's scores behind the signals and the tier (docs/routing.md).
        signal_scores: decision.signal_scores,
        difficulty: decision.difficulty,
        difficulty_scores: decision.difficulty_scores,
      },
      candidates: decision.candidates.map((m) => m.id),
      // Worst case: the whole completion budget is used, by each of the n choices.
      estimated_cost: {
        prompt_tokens: promptTokens,
        max_completion_tokens: completionTokens,
        ...costUsd(chosen, promptTokens, completionTokens),
        estimated: true,
      },
      ...(compliance ? { compliance: compliance.decision } : {}),
    },
  });
});
