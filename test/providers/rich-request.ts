import type { ModelRequest } from "../../src/providers/types";

/** A conversation with everything the translation carries: parts, an image, a tool call and its result, and every option. */
export const RICH: ModelRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: [{ type: "text", text: "Weather in Paris? " }, { type: "image", url: "data:image/png;base64,iVBORw0KGgo=" }] },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }] },
    { role: "tool", toolCallId: "call_1", content: '{"temperature":21}' },
    { role: "user", content: "And in Rome, see https://example.com/rome.png" },
  ],
  maxTokens: 2048,
  temperature: 0.5,
  options: {
    tools: [{ name: "get_weather", description: "Current weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
    toolChoice: "required",
    parallelToolCalls: false,
    stop: ["END"],
    topP: 0.9,
    seed: 7,
    user: "u-1",
    reasoningEffort: "low",
  },
};

export const JSON_SCHEMA_REQ: ModelRequest = {
  messages: [{ role: "user", content: "Extract: Ada is 36." }],
  maxTokens: 256,
  temperature: 0.7,
  options: { responseFormat: { type: "json_schema", name: "person", strict: true, schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } },
};
