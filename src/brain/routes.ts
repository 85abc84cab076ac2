import { Hono } from "hono";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { validateBrain, validateRequest } from "./requests";

/** SPEC.md 4.8 and 4.12: brain configs (docs/brain.md). Access per SPEC.md section 5 (src/auth/access.ts). */
export const brainRoutes = new Hono<AppEnv>().post("/v1/brain/validate", validate("json", validateRequest), (c) =>
  c.json(validateBrain(c.req.valid("json"))),
);
