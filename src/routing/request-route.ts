/**
 * Routing one chat request with what it needs of a model: tools, vision, JSON Schema output,
 * several choices (`n`) as eligibility predicates, `n` completions in the cost guard's worst case,
 * and its images in the prompt estimate. Chat completions (calls/chat.ts) and the routing preview
 * (POST /v1/route) both decide through it, so the preview never names a model chat would refuse.
 */
import { findModel } from "../catalog/models";
import { imagePromptTokens } from "../cost/image-tokens";
import { neededCapabilities, supports } from "../providers/capabilities";
import { textMessages } from "../providers/turns";
import type { CallOptions, Message } from "../providers/types";
import { apiError } from "../shared/errors";
import { route } from "./router";
import type { RouteDecision, RouteInput } from "./types";

export interface RequestRouteInput extends Omit<RouteInput, "messages" | "completions" | "imageTokens"> {
  /** The request's messages, content parts and tool calls included. */
  messages: readonly Message[];
  options?: CallOptions;
}

/** The image parts of the messages, for the prompt estimate (docs/compatibility.md, "Images and the cost guard"). */
function imageTokens(messages: readonly Message[]): number {
  let tokens = 0;
  for (const m of messages) {
    if (typeof m.content === "string") continue;
    for (const p of m.content) if (p.type === "image") tokens += imagePromptTokens(p.url, p.detail);
  }
  return tokens;
}

/**
 * The decision for a chat request. A pinned model without a needed capability is a 400 rather than
 * a silent swap; when no model on the plan has it, routing's last resort may still name one that
 * lacks it: that is a clear 400 too, not an upstream error or an answer that ignores the tools.
 */
export function routeRequest(input: RequestRouteInput): RouteDecision {
  const { messages, options, ...rest } = input;
  const needs = neededCapabilities(messages, options).map(supports);
  const pinned = findModel(input.model.trim());
  const pinnedLacks = pinned ? needs.map((ok) => ok(pinned)).find((r) => r !== null) : undefined;
  if (pinned && pinnedLacks) throw apiError("invalid_request", `${pinned.id} ${pinnedLacks}: pin a model that does, or send model "auto" to let routing choose one.`);
  const decision = route({
    ...rest,
    messages: textMessages(messages),
    completions: options?.n ?? 1,
    imageTokens: imageTokens(messages),
    eligibility: [...(input.eligibility ?? []), ...needs],
  });
  const candidates = decision.candidates.filter((m) => needs.every((ok) => ok(m) === null));
  if (!candidates.length) {
    const chosen = decision.candidates[0]!;
    const why = needs.map((ok) => ok(chosen)).find((r) => r !== null);
    throw apiError("invalid_request", `No model available to this request can serve it: ${chosen.id} ${why}, and no other eligible model does. ${decision.reason}`);
  }
  return { ...decision, candidates };
}
