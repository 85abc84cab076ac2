import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { invalidRequest, type ValidationIssue } from "./errors";

function zodIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): ValidationIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/**
 * zValidator wrapped once: a failure throws the service's 400 `invalid_request`,
 * rendered by the app's single onError.
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const issues = zodIssues(result.error);
      const where = target === "json" ? "body" : target;
      throw invalidRequest(`Invalid request ${where}: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`, issues);
    }
  });
