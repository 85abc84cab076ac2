/** Server-Sent Events in the OpenAI chunk format. */
const encoder = new TextEncoder();

export const sseData = (payload: unknown) => encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
export const SSE_DONE = encoder.encode("data: [DONE]\n\n");

export function chunk(id: string, created: number, model: string, delta: Record<string, unknown>, finishReason: string | null) {
  return { id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/**
 * Content chunks are the hot loop of a stream: the bytes around the content are fixed per stream, so
 * they are built once and each chunk costs one JSON string escape and one encode. The output is
 * byte-identical to `sseData(chunk(id, created, model, { content }, null))`.
 */
export function contentChunkEncoder(id: string, created: number, model: string) {
  const head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":{"content":`;
  const tail = `},"finish_reason":null}]}\n\n`;
  return (content: string) => encoder.encode(head + JSON.stringify(content) + tail);
}

/** The OpenAI error event shape, which the SDKs raise as an APIError. */
export function errorEvent(message: string, code: string) {
  return { error: { message, type: "upstream_error", code, param: null } };
}
