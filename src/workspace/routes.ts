import { Hono } from "hono";
import { z } from "zod";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { manifestSchema } from "../policy/manifest";
import { pageLimit, workspaceIdSchema } from "../shared/schemas";
import { validate } from "../shared/validate";
import { checkReadiness, workspaceSnapshot } from "./actions";
import { generateArtifacts } from "./generate";

export const workspaceRoutes = new Hono<AppEnv>()
  .post("/v1/workspace/readiness", validate("json", manifestSchema), async (c) => c.json(await checkReadiness(db(c.env.DB), c.get("apiKey").ownerId, c.req.valid("json"))))
  /** Byte-identical artifacts for the same manifest; nothing is stored. */
  .post("/v1/workspace/generate", validate("json", manifestSchema), (c) => c.json(generateArtifacts(c.req.valid("json"))))
  .get(
    "/v1/workspace/:workspace_id/snapshot",
    validate("param", z.object({ workspace_id: workspaceIdSchema })),
    validate("query", z.object({ limit: pageLimit, cursor: z.string().min(1).max(100).optional() })),
    async (c) => {
      const { limit, cursor } = c.req.valid("query");
      return c.json(await workspaceSnapshot(c.env, db(c.env.DB), c.get("apiKey").ownerId, c.req.valid("param").workspace_id, limit, cursor));
    },
  );
