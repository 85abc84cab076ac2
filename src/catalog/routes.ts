import { Hono } from "hono";
import type { AppEnv } from "../env";
import { MODELS } from "./models";

// Catalog publication date: a stable `created` for every entry (OpenAI lists carry one).
const CATALOG_CREATED = 1767225600; // 2026-01-01T00:00:00Z

const LISTING = {
  object: "list",
  data: MODELS.map((model) => ({
    id: model.id,
    object: "model",
    created: CATALOG_CREATED,
    owned_by: model.provider,
    display_name: model.display_name,
    provider: model.provider,
    tier: model.tier,
    input_usd_per_mtok: model.input_usd_per_mtok,
    output_usd_per_mtok: model.output_usd_per_mtok,
    context_tokens: model.context_tokens,
    upstream_id: model.upstream_id,
    capabilities: model.capabilities,
  })),
};
const LISTING_JSON = JSON.stringify(LISTING);

export const catalogRoutes = new Hono<AppEnv>().get("/v1/models", (c) =>
  c.body(LISTING_JSON, 200, { "content-type": "application/json", "cache-control": "public, max-age=300" }),
);
