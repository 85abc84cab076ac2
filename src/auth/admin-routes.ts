import { Hono } from "hono";
import { desc } from "drizzle-orm";
import { z } from "zod";
import { db } from "../db/client";
import { apiKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { PLAN_IDS } from "../plans/plans";
import { apiError, notFound } from "../shared/errors";
import { timingSafeEqualStr } from "../shared/hash";
import { validate } from "../shared/validate";
import { forgetKey } from "./key-cache";
import { createKey, publicKeyView, revokeKey, type ApiKeyRecord } from "./keys";

const createBody = z.object({
  plan: z.enum(PLAN_IDS as [string, ...string[]]).default("pro"),
  owner: z.string().min(1).max(200).optional(),
});

/**
 * Key administration guarded by the ADMIN_TOKEN secret. Without the secret these routes do not
 * exist (404 like any unknown path), so an unconfigured deployment has no admin surface.
 */
export const adminRoutes = new Hono<AppEnv>()
  .use("/admin/*", async (c, next) => {
    const token = c.env.ADMIN_TOKEN;
    if (!token) throw notFound();
    const given = c.req.header("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!timingSafeEqualStr(given, token)) throw apiError("invalid_admin_token", "Missing or wrong admin token.");
    await next();
  })
  .post("/admin/keys", validate("json", createBody), async (c) => {
    const { plan, owner } = c.req.valid("json");
    const { key, record } = await createKey(db(c.env.DB), plan as ApiKeyRecord["plan"], owner);
    return c.json({ ...publicKeyView(record), key }, 201);
  })
  .get("/admin/keys", async (c) => {
    const rows = await db(c.env.DB).select().from(apiKeys).orderBy(desc(apiKeys.createdAt)).limit(500);
    return c.json({ object: "list", data: rows.map((r) => publicKeyView(r as ApiKeyRecord)) });
  })
  .delete("/admin/keys/:id", async (c) => {
    const id = c.req.param("id");
    const record = await revokeKey(db(c.env.DB), id);
    if (!record) throw notFound("key_not_found", `No API key with id ${id}.`);
    forgetKey(record.keyHash);
    return c.json(publicKeyView(record));
  });

