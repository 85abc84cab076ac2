/** Server-Sent Events in the OpenAI chunk format, as text: a stream joins one read's frames and encodes them once. */
export const sseData = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
export const SSE_DONE = "data: [DONE]\n\n";

export function chunk(id: string, created: number, model: string, delta: Record<string, unknown>, finishReason: string | null, index = 0) {
  return { id, object: "chat.completion.chunk", created, model, choices: [{ index, delta, finish_reason: finishReason }] };
}

/**
 * Content chunks are the hot loop of a stream: the text around the content is fixed per stream, so
 * it is built once and each chunk costs one JSON string escape. The output is identical to
 * `sseData(chunk(id, created, model, { content }, null, index))`.
 */
export function contentChunkEncoder(id: string, created: number, model: string) {
  const head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"choices":[{"index":`;
  const tail = `},"finish_reason":null}]}\n\n`;
  return (content: string, index = 0) => head + index + `,"delta":{"content":` + JSON.stringify(content) + tail;
}

/** The OpenAI error event shape, which the SDKs raise as an APIError. */
export function errorEvent(message: string, code: string) {
  return { error: { message, type: "upstream_error", code, param: null } };
}
