import { z } from "zod";
import { requiresKey } from "../auth/access";
import { validationOf } from "../shared/validate";
import { OPERATIONS, type OperationDoc } from "./operations";

/**
 * The service's operations, read off the app's own routes: method, path, access and the zod schemas
 * the routes validate with (tagged by `validate`), joined with the docs of operations.ts. The OpenAPI
 * document, the MCP tool manifest and the MCP server are all built from this one list.
 */
export interface RouteLike {
  method: string;
  path: string;
  handler: unknown;
}

export type Access = "public" | "key" | "admin";

export interface Operation extends OperationDoc {
  /** `METHOD /path` with Hono's `:param` syntax: the key of operations.ts. */
  key: string;
  method: string;
  path: string;
  /** The path with `{param}` placeholders (OpenAPI, the manifest). */
  templatePath: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
}

const HTTP_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

function accessOf(method: string, path: string): Access {
  if (path.startsWith("/admin")) return "admin";
  return requiresKey(method, path.replace(/:(\w+)/g, "$1")) ? "key" : "public";
}

export interface Registry {
  operations: Operation[];
  /** Routes with no entry in operations.ts, and entries with no route: both must be empty. */
  undocumented: string[];
  unrouted: string[];
}

export function buildRegistry(routes: readonly RouteLike[], docs: Readonly<Record<string, OperationDoc>> = OPERATIONS): Registry {
  const byKey = new Map<string, Operation>();
  const undocumented: string[] = [];
  for (const r of routes) {
    if (!HTTP_METHODS.has(r.method)) continue;
    const key = `${r.method} ${r.path}`;
    let op = byKey.get(key);
    if (!op) {
      const doc = docs[key];
      if (!doc) {
        if (!undocumented.includes(key)) undocumented.push(key);
        continue;
      }
      op = { ...doc, key, method: r.method, path: r.path, templatePath: r.path.replace(/:(\w+)/g, "{$1}"), access: accessOf(r.method, r.path) };
      byKey.set(key, op);
    }
    const v = validationOf(r.handler);
    if (v?.target === "param") op.params = v.schema;
    else if (v?.target === "query") op.query = v.schema;
    else if (v?.target === "json") op.body = v.schema;
  }
  const unrouted = Object.keys(docs).filter((k) => !byKey.has(k) && !undocumented.includes(k));
  return { operations: [...byKey.values()], undocumented, unrouted };
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** JSON Schema (2020-12) of what a client sends: the input side of a zod schema. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** One object schema of everything a tool call takes: path params, query and body fields together. */
export function toolInputSchema(op: Operation): JsonSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of [op.params, op.query, op.body]) {
    if (!part) continue;
    const s = jsonSchemaOf(part);
    Object.assign(properties, s.properties ?? {});
    required.push(...(s.required ?? []));
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}
