import { Hono } from "hono";
import { z } from "zod";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { createOwnerKey, listOwnerKeys, revokeOwnerKey, rotateOwnerKey } from "./owner-keys";

/** Create and rotate take no fields: the plan and owner come from the calling key. */
const noFields = z.strictObject({});
const keyParam = z.object({ key_id: z.string().min(1).max(100) });

/** The owner-scoped key endpoints (docs/auth-and-limits.md, "Owner key endpoints"). */
export const ownerKeyRoutes = new Hono<AppEnv>()
  .get("/v1/keys", async (c) => {
    const data = await listOwnerKeys(db(c.env.DB), c.get("apiKey"));
    return c.json({ object: "list", count: data.length, data });
  })
  .post("/v1/keys", validate("json", noFields), async (c) => c.json(await createOwnerKey(db(c.env.DB), c.get("apiKey")), 201))
  .delete("/v1/keys/:key_id", validate("param", keyParam), async (c) => c.json(await revokeOwnerKey(db(c.env.DB), c.get("apiKey"), c.req.valid("param").key_id)))
  .post("/v1/keys/:key_id/rotate", validate("param", keyParam), validate("json", noFields), async (c) =>
    c.json(await rotateOwnerKey(db(c.env.DB), c.get("apiKey"), c.req.valid("param").key_id), 201),
  );
