/**
 * The bare pass-through Worker: the floor of "a Worker that calls an upstream". It forwards the
 * request body to the mock upstream's OpenAI-compatible endpoint and returns the upstream's body
 * as a stream, untouched. No auth, no limiter, no parsing, no storage. Whatever the gateway costs
 * above this is the gateway's own code; whatever this costs above calling the mock directly is
 * workerd's HTTP in and out, which the gateway pays too and cannot remove.
 *
 * Plain JavaScript on purpose: Miniflare loads it as-is, with no bundling step between the file
 * and what runs.
 */
export default {
  /** @param {Request} request @param {{ UPSTREAM: string }} env */
  async fetch(request, env) {
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
