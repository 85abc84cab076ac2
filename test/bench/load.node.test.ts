/**
 * The benchmark's load generators send what a target asks for: its fixed headers (a peer
 * gateway's routing headers), a rotating key, the body. wrk runs a generated Lua script; a script
 * wrk cannot load makes it send bare requests, which the peer refuses (the --peers run that found it).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Target } from "../../bench/client";
import { runLoad, wrkScript, type LoadTool } from "../../bench/load";

const hasWrk = !spawnSync("wrk", ["--version"]).error;
const seen: Array<{ provider?: string; authorization?: string; type?: string; body: string }> = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const h = req.headers;
    seen.push({ provider: h["x-portkey-provider"] as string | undefined, authorization: h.authorization, type: h["content-type"], body });
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
});
let origin = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = (): Target => ({ name: "peer", origin, method: "POST", path: "/v1/chat/completions", body: '{"model":"m","messages":[]}', auth: true, headers: { "x-portkey-provider": "openai" } });

describe("bench load generators", () => {
  it("the wrk script's fixed headers are a valid Lua table of long strings ([[[ would open a string)", () => {
    const script = wrkScript(target(), ["k1"]);
    expect(script).toContain("local fixed = { [ [[x-portkey-provider]] ] = [[openai]] }");
    expect(script).not.toContain("[[[");
  });

  const tools: LoadTool[] = ["autocannon", "wrk"];
  for (const tool of tools) {
    it.skipIf(tool === "wrk" && !hasWrk)(`${tool} sends the target's headers, a key per request in turn and the body${tool === "wrk" ? " (needs wrk on PATH)" : ""}`, async () => {
      seen.length = 0;
      const r = await runLoad(tool, target(), ["key-a", "key-b"], 2, 1, mkdtempSync(path.join(tmpdir(), "svc-load-test-")));
      expect(r.requests).toBeGreaterThan(10);
      expect(r.failures).toBe(0);
      expect(seen.every((s) => s.provider === "openai" && s.type === "application/json" && s.body === target().body)).toBe(true);
      expect(new Set(seen.map((s) => s.authorization))).toEqual(new Set(["Bearer key-a", "Bearer key-b"]));
    });
  }
});
