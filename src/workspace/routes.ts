import { Hono } from "hono";
import { z } from "zod";
import { pageLimit } from "../audit/list";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { loadVerifiedChain } from "../handoff/store";
import { validate } from "../shared/validate";
import { generateArtifacts } from "./generate";
import { manifestSchema, saveManifest, workspaceIdSchema } from "./manifest";
import { scoreReadiness } from "./readiness";
import { buildSnapshot } from "./snapshot";

export const workspaceRoutes = new Hono<AppEnv>()
  /** SPEC.md 4.5. Scoring is pure; the manifest is stored as the workspace's policy (docs/governance.md). */
  .post("/v1/workspace/readiness", validate("json", manifestSchema), async (c) => {
    const manifest = c.req.valid("json");
    await saveManifest(db(c.env.DB), c.get("apiKey").ownerId, manifest);
    return c.json(scoreReadiness(manifest));
  })
  /** Byte-identical artifacts for the same manifest; nothing is stored. */
  .post("/v1/workspace/generate", validate("json", manifestSchema), (c) => c.json(generateArtifacts(c.req.valid("json"))))
  .get(
    "/v1/workspace/:workspace_id/snapshot",
    validate("param", z.object({ workspace_id: workspaceIdSchema })),
    validate("query", z.object({ limit: pageLimit })),
    async (c) => {
      const { workspace_id } = c.req.valid("param");
      const { rows, verification } = await loadVerifiedChain(c.env, db(c.env.DB), c.get("apiKey").ownerId, workspace_id);
      return c.json(buildSnapshot(workspace_id, rows, verification, c.req.valid("query").limit));
    },
  );
