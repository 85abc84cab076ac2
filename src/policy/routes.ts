import { Hono } from "hono";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { riskScoreInput, scoreRisk } from "./assess";
import { checkPolicy, policyCheckInput } from "./check";

export const policyRoutes = new Hono<AppEnv>()
  .post("/v1/risk/score", validate("json", riskScoreInput), async (c) => c.json(await scoreRisk(db(c.env.DB), c.get("apiKey").ownerId, c.req.valid("json"))))
  .post("/v1/policy/check", validate("json", policyCheckInput), async (c) => c.json(await checkPolicy(db(c.env.DB), c.get("apiKey"), c.req.valid("json"))));
