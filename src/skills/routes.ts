import { Hono } from "hono";
import type { AppEnv } from "../env";
import { getSkill, listSkills } from "./catalog";

/** SPEC.md 4.9. The library is part of the deployed code, so a listing changes only with a deploy. */
export const skillsRoutes = new Hono<AppEnv>()
  .get("/v1/skills", (c) => c.json(listSkills()))
  .get("/v1/skills/:skill_id", (c) => {
    const { id, name, description, raw, source } = getSkill(c.req.param("skill_id"));
    return c.json({ id, name, description, raw, source });
  });
