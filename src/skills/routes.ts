import { Hono } from "hono";
import { completeChat, streamChat } from "../calls/chat";
import { callDeps } from "../calls/deps";
import { toApiError } from "../calls/errors";
import { openAiErrorResponse } from "../calls/openai-errors";
import { chatSse, completionJson, SSE_HEADERS } from "../calls/render";
import type { AppEnv } from "../env";
import { FAULT_HEADER } from "../sandbox/faults";
import { validate } from "../shared/validate";
import { getSkill, listSkills } from "./catalog";
import { invokeRequestSchema, skillCall } from "./invoke";

/** x-svc-overhead-us: time in the gateway minus time waiting on upstreams (as on chat). */
const overheadUs = (startedAt: number, upstreamMs: number) => String(Math.max(0, Math.round((performance.now() - startedAt - upstreamMs) * 1000)));

/** SPEC.md 4.9. The library is part of the deployed code, so a listing changes only with a deploy. */
export const skillsRoutes = new Hono<AppEnv>()
  .get("/v1/skills", (c) => c.json(listSkills()))
  .get("/v1/skills/:skill_id", (c) => {
    const { id, name, description, capabilities, raw, source } = getSkill(c.req.param("skill_id"));
    return c.json({ id, name, description, capabilities, raw, source });
  })
  // Skill invoke answers a chat completion, so its errors are OpenAI's error object where SPEC.md
  // section 7 fixes no shape (docs/skills.md), as on chat completions.
  .use("/v1/skills/:skill_id/invoke", async (c, next) => {
    await next();
    if (c.error) c.res = openAiErrorResponse(c.error, c.get("requestId"));
  })
  .post(
    "/v1/skills/:skill_id/invoke",
    // An unknown skill is a 404 whatever the body holds.
    async (c, next) => {
      getSkill(c.req.param("skill_id"));
      await next();
    },
    validate("json", invokeRequestSchema),
    async (c) => {
      const body = c.req.valid("json");
      const startedAt = c.get("startedAt");
      const deps = callDeps({
        env: c.env,
        key: c.get("apiKey"),
        faults: c.req.header(FAULT_HEADER) ?? null,
        signal: c.req.raw.signal,
        waitUntil: (p) => c.executionCtx.waitUntil(p),
      });
      const { input, extendSvc } = skillCall(c.req.param("skill_id"), body, { requestId: c.get("requestId"), startedAt, plan: deps.plan });
      try {
        if (body.stream) {
          const s = await streamChat(deps, input);
          // The invoke body has no stream_options: its stream keeps the usage chunk (docs/compatibility.md).
          return new Response(chatSse(s, (p) => c.executionCtx.waitUntil(p), extendSvc, { includeUsage: true }), {
            headers: { ...SSE_HEADERS, "x-svc-overhead-us": overheadUs(startedAt, s.upstreamMs()) },
          });
        }
        const { outcome, upstreamMs } = await completeChat(deps, input);
        c.header("x-svc-overhead-us", overheadUs(startedAt, upstreamMs));
        return c.json(completionJson(outcome, extendSvc));
      } catch (err) {
        throw toApiError(err);
      }
    },
  );
