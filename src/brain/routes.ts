import { Hono, type Context } from "hono";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { BADGE_CACHE_CONTROL, etagMatches, getBadge } from "./badge";
import { validateBrain, validateRequest, shareRequest } from "./requests";
import { createShare, getShare, listShares, shareLinks, shareListQuery, type ShareDeps } from "./shares";

/** A share never changes once written: caches may keep its fetch for a year without asking again. */
export const SHARE_CACHE_CONTROL = "public, max-age=31536000, immutable";

const shareDeps = (c: Context<AppEnv>): ShareDeps => ({
  db: db(c.env.DB),
  kv: c.env.CACHE,
  defer: (work) => c.executionCtx.waitUntil(work),
  links: shareLinks(c.req.url, c.env.SHORT_URL_BASE),
});

/** SPEC.md 4.8 and 4.12: brain configs (docs/brain.md). Access per SPEC.md section 5 (src/auth/access.ts). */
export const brainRoutes = new Hono<AppEnv>()
  .post("/v1/brain/validate", validate("json", validateRequest), (c) => c.json(validateBrain(c.req.valid("json"))))
  .post("/v1/brain/share", validate("json", shareRequest), async (c) => {
    const { source, title } = c.req.valid("json");
    return c.json(await createShare(shareDeps(c), c.get("apiKey").ownerId, source, title));
  })
  .get("/v1/brain/shares", validate("query", shareListQuery), async (c) =>
    c.json(await listShares(shareDeps(c), c.get("apiKey").ownerId, c.req.valid("query"))),
  )
  // `/b/{id}` is the default short URL (`SHORT_URL_BASE` unset): it answers the same as `/v1/b/{id}`.
  .on("GET", ["/v1/b/:share_id", "/b/:share_id"], async (c) =>
    c.json(await getShare(shareDeps(c), c.req.param("share_id")), 200, { "cache-control": SHARE_CACHE_CONTROL }),
  )
  // Never an error: any query draws a badge (an unknown model is a grey "unknown").
  .get("/v1/brain/badge", async (c) => {
    const { svg, etag } = await getBadge(
      { kv: c.env.CACHE, defer: (work) => c.executionCtx.waitUntil(work) },
      c.req.query("model"),
      c.req.query("label"),
    );
    const headers = { "cache-control": BADGE_CACHE_CONTROL, etag };
    if (etagMatches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
    return c.body(svg, 200, { ...headers, "content-type": "image/svg+xml; charset=utf-8", "x-content-type-options": "nosniff" });
  });
