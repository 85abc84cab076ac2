/** Server-Sent Events in the OpenAI chunk format. */
const encoder = new TextEncoder();

export const sseData = (payload: unknown) => encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
export const SSE_DONE = encoder.encode("data: [DONE]\n\n");

export function chunk(id: string, created: number, model: string, delta: Record<string, string>, finishReason: string | null) {
  return { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/** The OpenAI error event shape, which the SDKs raise as an APIError. */
export function errorEvent(message: string, code: string) {
  return { error: { message, type: "upstream_error", code, param: null } };
}
