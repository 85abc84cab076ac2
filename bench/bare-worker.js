/**
 * The bare pass-through Worker: the floor of "a Worker that calls an upstream". It forwards the
 * request body to the mock upstream's OpenAI-compatible endpoint and returns the upstream's body
 * as a stream, untouched. No auth, no limiter, no parsing, no storage. Whatever the gateway costs
 * above this is the gateway's own code; whatever this costs above calling the mock directly is
 * workerd's HTTP in and out, which the gateway pays too and cannot remove.
 *
 * Under `/json/…` (target "bare, JSON") it does the least a gateway that transforms must do: parse
 * the request's JSON and write it again for the upstream, parse the upstream's JSON answer and
 * write a new response; still no auth, limiter, validation, routing, receipt or storage. What it
 * costs over the pass-through is the floor of any JSON-transforming Worker on this runtime, and
 * the part of the gateway's own code that no gateway logic can remove.
 *
 * Plain JavaScript on purpose: Miniflare loads it as-is, with no bundling step between the file
 * and what runs.
 */
export default {
  /** @param {Request} request @param {{ UPSTREAM: string }} env */
  async fetch(request, env) {
    if (new URL(request.url).pathname.startsWith("/json/")) return json(request, env);
    const upstream = await fetch(`${env.UPSTREAM}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      // Read whole, as any gateway must before it can route; it also gives the upstream a
      // content-length rather than a chunked upload, as the gateway's re-serialized body does.
      body: await request.arrayBuffer(),
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: { "content-type": upstream.headers.get("content-type") ?? "application/json" },
    });
  },
};

/** The JSON round trip of "bare, JSON" (non-streamed only). @param {Request} request @param {{ UPSTREAM: string }} env */
async function json(request, env) {
  const body = await request.json();
  const upstream = await fetch(`${env.UPSTREAM}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body: JSON.stringify(body),
  });
  return Response.json(await upstream.json(), { status: upstream.status });
}
