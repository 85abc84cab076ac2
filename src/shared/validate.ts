import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { invalidRequest, type ValidationIssue } from "./errors";

/**
 * How deep a request value may nest (the body itself is level 1). Free-form fields such as a policy
 * check's `context` are hashed, canonicalised and stored by recursive code, so an unbounded depth
 * is a stack overflow waiting to happen; no field of SPEC.md needs more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 64;

function zodIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): ValidationIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

const failure = (where: string, issues: ValidationIssue[]) =>
  invalidRequest(`Invalid request ${where}: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`, issues);

/**
 * The first thing, in document order, in a parsed request value that no schema should have to
 * think about: a string (or object key) that is not well-formed UTF-16, i.e. holds a lone surrogate
 * such as "\ud800", which cannot be stored or hashed faithfully (D1 replaces it, so a signed record
 * would no longer verify); or nesting deeper than MAX_JSON_DEPTH. Recursive, but it turns back at
 * MAX_JSON_DEPTH + 1 levels, so the check itself cannot overflow the stack. (It runs on every
 * request body: one path array shared by the walk, and index loops over arrays.)
 */
export function unsafeJsonIssue(value: unknown): ValidationIssue | undefined {
  const path: string[] = [];
  const illFormed = (what: string) => ({ path: path.join("."), message: `${what} contains a lone UTF-16 surrogate (not well-formed Unicode)` });
  const walk = (v: unknown, depth: number): ValidationIssue | undefined => {
    if (typeof v === "string") return v.isWellFormed() ? undefined : illFormed("string");
    if (typeof v !== "object" || v === null) return undefined;
    if (depth > MAX_JSON_DEPTH) return { path: path.join("."), message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(String(i));
        const issue = walk(v[i], depth + 1);
        path.pop();
        if (issue) return issue;
      }
      return undefined;
    }
    const record = v as Record<string, unknown>;
    for (const key in record) {
      if (!key.isWellFormed()) return illFormed("object key");
      path.push(key);
      const issue = walk(record[key], depth + 1);
      path.pop();
      if (issue) return issue;
    }
    return undefined;
  };
  return walk(value, 1);
}

/**
 * zValidator wrapped once: the value is first screened by `unsafeJsonIssue`, then parsed by the
 * schema; a failure of either throws the service's 400 `invalid_request`, rendered by the app's
 * single onError. Every body, query and param validator goes through here, so no route can skip it.
 */
/** Where a validator middleware keeps what it checks, so the operation registry can read it off a route. */
export const VALIDATION = Symbol("validation");
export interface Validation {
  target: keyof ValidationTargets;
  schema: z.ZodType;
}

/** The target and schema a route handler validates, when it is one of `validate`'s middlewares. */
export const validationOf = (handler: unknown): Validation | undefined => (handler as { [VALIDATION]?: Validation } | null)?.[VALIDATION];

export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) => {
  const where = target === "json" ? "body" : target;
  const screenThenParse = (s: T, value: unknown) => {
    const issue = unsafeJsonIssue(value);
    if (issue) throw failure(where, [issue]);
    return s.safeParseAsync(value);
  };
  const middleware = zValidator(
    target,
    schema,
    (result) => {
      if (!result.success) throw failure(where, zodIssues(result.error));
    },
    // zod-validator types this option through a conditional type that a generic T cannot resolve.
    { validationFunction: screenThenParse as never },
  );
  return Object.assign(middleware, { [VALIDATION]: { target, schema } satisfies Validation });
};
