/**
 * What a request needs of a model beyond chat: tools, images, a JSON Schema answer. Routing takes
 * these as eligibility predicates, so a request with tools only goes to models that can call them.
 */
import type { Capability, Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { hasImages } from "./turns";
import type { CallOptions, Message } from "./types";

const WHAT: Partial<Record<Capability, string>> = {
  tools: "tool calls (tools)",
  vision: "image input (image_url content parts)",
  json_schema: "JSON Schema output (response_format json_schema)",
  n: "several choices in one answer (n above 1)",
};

export function neededCapabilities(messages: readonly Message[], options: CallOptions | undefined): Capability[] {
  const caps: Capability[] = [];
  // tool_choice "none" offers the tools without letting the model call them: any model will do.
  if (options?.tools?.length && options.toolChoice !== "none") caps.push("tools");
  if (hasImages(messages)) caps.push("vision");
  if (options?.responseFormat?.type === "json_schema") caps.push("json_schema");
  if ((options?.n ?? 1) > 1) caps.push("n");
  return caps;
}

/** The predicate for one capability, with the reason routing reports for a model without it. */
export const supports = (cap: Capability): Eligibility => (m: Model) =>
  m.capabilities.includes(cap) ? null : `does not support ${WHAT[cap] ?? cap}`;
