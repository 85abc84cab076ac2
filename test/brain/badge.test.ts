import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BADGE_KV_TTL_S, badgeKvKey, getBadge } from "../../src/brain/badge";
import { call, eventually } from "../helpers";
import { allElements, parseXml } from "./xml";

const badge = (query: string, headers?: Record<string, string>) => call(`/v1/brain/badge${query}`, { headers });
const values = (svg: string) => allElements(parseXml(svg)).filter((e) => e.name === "text" && !e.attrs["aria-hidden"]).map((e) => e.text);

describe("GET /v1/brain/badge (SPEC.md 4.8, public)", () => {
  it("answers an SVG with no key: label and display name, cacheable for an hour, with an ETag", async () => {
    const r = await badge("?model=claude-opus-4-6");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(r.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(parseXml(r.text).name).toBe("svg");
    expect(values(r.text)).toEqual(["BRAIN.md", "Claude Opus 4.6"]);
    expect(r.text).toContain('fill="#7c3aed"');
  });

  it("takes a label; an unknown, missing or empty model is a grey unknown badge, never an error", async () => {
    expect(values((await badge("?model=gpt-5-nano&label=routed%20by")).text)).toEqual(["routed by", "GPT-5 nano"]);
    for (const q of ["?model=gpt-9-ultra", "", "?model=", "?model=%00", "?label=&model=nope"]) {
      const r = await badge(q);
      expect(r.status, q).toBe(200);
      expect(values(r.text)[1]).toBe("unknown");
      expect(r.text).toContain('fill="#9f9f9f"');
    }
  });

  it("a hostile label stays text in well-formed XML", async () => {
    const label = encodeURIComponent(`</text><script>alert(document.domain)</script><a href="javascript:x">`);
    const r = await badge(`?model=gpt-5-mini&label=${label}`);
    expect(r.status).toBe(200);
    const names = allElements(parseXml(r.text)).map((e) => e.name);
    expect(names).not.toContain("script");
    expect(names).not.toContain("a");
    expect(values(r.text)[0]).toBe("</text><script>alert(document.domain)</…");
  });

  it("304 on a matching If-None-Match (exact, weak or listed), with the same ETag and no body; 200 otherwise", async () => {
    const first = await badge("?model=gpt-5.2");
    const etag = first.headers.get("etag")!;
    for (const inm of [etag, `W/${etag}`, `"zzz", ${etag}`, "*"]) {
      const r = await badge("?model=gpt-5.2", { "if-none-match": inm });
      expect(r.status, inm).toBe(304);
      expect(r.text).toBe("");
      expect(r.headers.get("etag")).toBe(etag);
      expect(r.headers.get("cache-control")).toBe("public, max-age=3600");
    }
    const other = await badge("?model=gpt-5.2", { "if-none-match": '"stale"' });
    expect(other.status).toBe(200);
    // Another badge has another tag.
    expect((await badge("?model=gpt-5-mini")).headers.get("etag")).not.toBe(etag);
  });

  it("caches the SVG in KV for an hour (TTL >= 60 s) and serves from it", async () => {
    const first = await badge("?model=sonar&label=kv");
    const key = badgeKvKey("sonar", "kv");
    expect(await eventually(() => env.CACHE.get(key))).toBe(first.text);
    const listed = await env.CACHE.list({ prefix: key });
    const expiresIn = listed.keys[0]!.expiration! - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThanOrEqual(60);
    expect(expiresIn).toBeLessThanOrEqual(BADGE_KV_TTL_S + 5);
    // What KV holds is what is served.
    const marked = first.text.replaceAll("Perplexity Sonar", "From KV");
    await env.CACHE.put(key, marked, { expirationTtl: 60 });
    const second = await badge("?model=sonar&label=kv");
    expect(values(second.text)[1]).toBe("From KV");
  });

  it("a KV failure never fails the badge: it is drawn instead", async () => {
    const broken = {
      get: () => Promise.reject(new Error("KV unavailable")),
      put: () => Promise.reject(new Error("KV unavailable")),
    } as unknown as KVNamespace;
    const deferred: Promise<unknown>[] = [];
    const { svg, etag } = await getBadge({ kv: broken, defer: (p) => deferred.push(p) }, "grok-4", undefined);
    expect(values(svg)).toEqual(["BRAIN.md", "Grok 4"]);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    await expect(Promise.all(deferred)).resolves.toBeDefined();
  });
});
