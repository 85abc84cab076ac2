import { Hono } from "hono";
import type { AppEnv } from "../env";
import { catalogEntry, MODELS } from "./models";

const LISTING = { object: "list", data: MODELS.map(catalogEntry) };
const LISTING_JSON = JSON.stringify(LISTING);

export const catalogRoutes = new Hono<AppEnv>().get("/v1/models", (c) =>
  c.body(LISTING_JSON, 200, { "content-type": "application/json", "cache-control": "public, max-age=300" }),
);
