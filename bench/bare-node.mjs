/**
 * The bare Node pass-through server: what `bare` (bench/bare-worker.js) is to the gateway, this is
 * to a Node-hosted peer gateway (Portkey). It reads the request body, POSTs it to the mock
 * upstream's OpenAI-compatible endpoint over a keep-alive agent and pipes the answer back as it
 * arrives. No framework, no parsing, no auth. Whatever a peer running on Node costs above this is
 * the peer's own code; whatever this costs above calling the mock directly is Node's HTTP in and out.
 *
 * Plain JavaScript run by plain `node` (the project's Node 24), as the peer is: no loader in the
 * process. Usage: node bench/bare-node.mjs UPSTREAM_ORIGIN; prints `{"port":N}` when it listens.
 */
import { Agent, createServer, request } from "node:http";

const upstream = new URL("/v1/chat/completions", process.argv[2] ?? "http://127.0.0.1:1");
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
  const parts = [];
  req.on("data", (d) => parts.push(d));
  req.on("end", () => {
    const body = Buffer.concat(parts);
    const out = request(
      upstream,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length, authorization: "Bearer bench" } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { "content-type": up.headers["content-type"] ?? "application/json" });
        up.pipe(res);
      },
    );
    out.on("error", (err) => {
      res.writeHead(502, { "content-type": "text/plain" }).end(String(err));
    });
    out.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on("SIGTERM", () => process.exit(0));
