import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { app } from "../../src/app";
import { buildRegistry, jsonSchemaOf, type Operation } from "../../src/mcp/registry";
import { ApiError, ERROR_CODES, statusOf, type ErrorCode } from "../../src/shared/errors";
import { call, newKey } from "../helpers";

/**
 * Property-based fuzzing of every route the app serves (issue 16). Routes come from the app itself
 * (the operation registry reads `app.routes` and the schemas the validators carry), so an endpoint
 * added tomorrow is fuzzed without touching this file. For each one, requests are generated from its
 * own JSON Schema, mixed with arbitrary JSON, ill-formed strings, deep nesting and broken bodies,
 * with and without a key. Every answer must be below 500, carry x-request-id and, when it is an
 * error, be in the SPEC.md section 7 envelope of its catalogue code (status and shape).
 * Each route gets at most TIME_PER_ROUTE_MS, so the whole file stays well under a minute.
 */

const OPERATIONS = buildRegistry(app.routes).operations;
const RUNS_PER_ROUTE = 30;
/** `FUZZ_SEED=<n> npx vitest run test/foundation/fuzz.test.ts` replays a run (the seed is in a failure's report). */
const SEED = Number(inject("fuzzSeed") || Date.now() % 2 ** 31);
const TIME_PER_ROUTE_MS = 800;
const ADMIN_TOKEN = "test-admin-token";

type Schema = Record<string, any>;

/** Strings a schema would never suggest: lone surrogates, control characters, traversal, huge. */
const hostileString = fc.oneof(
  fc.constantFrom("x\ud800y", "\udfff", "\u0000", "../../etc/passwd", "%00", "' OR 1=1 --", "\u202e", "a".repeat(5000), "💥".repeat(300)),
  fc.string({ unit: "binary", maxLength: 20 }),
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
/**
 * Arrays or objects nested far past any limit (a recursive walk's stack ends near 10,000). They are
 * carried as a marker string and spliced into the body text last: JSON.stringify itself is
 * recursive, so the test would overflow before the service did.
 */
const DEEP = "\u0001deep:";
const deep = fc.tuple(fc.integer({ min: 60, max: 20_000 }), fc.boolean()).map(([n, arrays]) => `${DEEP}${n}:${arrays ? "a" : "o"}`);
const spliceDeep = (text: string) =>
  text.replace(/"\\u0001deep:(\d+):([ao])"/g, (_, n: string, kind: string) =>
    kind === "a" ? `${"[".repeat(Number(n))}${"]".repeat(Number(n))}` : `${'{"a":'.repeat(Number(n))}1${"}".repeat(Number(n))}`,
  );

/** A value that fits the JSON Schema (mutations are applied afterwards, one at a time). */
function arbitraryFor(schema: Schema, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 5) return anyJson;
  if (typeof schema.$ref === "string") {
    const target = schema.$ref.split("/").slice(1).reduce((o: Schema | undefined, k: string) => o?.[k], root);
    return target ? arbitraryFor(target, root, depth + 1) : anyJson;
  }
  return fitsSchema(schema, root, depth);
}

/** Every place in a JSON value where a mutation can land: the value itself and each nested one. */
function places(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => places(v, [...path, i], out));
  else if (value && typeof value === "object") for (const k of Object.keys(value)) places((value as Record<string, unknown>)[k], [...path, k], out);
  return out;
}

const DELETE = Symbol("delete");
const replacement = fc.oneof(hostileString, deep, anyJson, fc.constant(DELETE));

/** One hostile change at one place of an otherwise fitting value, so that it gets past the checks before it. */
function mutate(value: unknown, at: number, next: unknown): unknown {
  const all = places(value);
  const path = all[at % all.length]!;
  if (!path.length) return next === DELETE ? undefined : next;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (next === DELETE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = next;
  return copy;
}

const fuzzed = (schema: Schema) =>
  fc
    .tuple(arbitraryFor(schema, schema), fc.option(fc.tuple(fc.nat(), replacement), { freq: 2 }))
    .map(([value, change]) => (change ? mutate(value, change[0], change[1]) : value));

function fitsSchema(schema: Schema, root: Schema, depth: number): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((s: Schema) => arbitraryFor(s, root, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return arbitraryFor(schema.allOf[0], root, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => fitsSchema({ ...schema, type: t }, root, depth)));
  switch (type[0]) {
    case "string":
      if (typeof schema.pattern === "string") return fc.stringMatching(new RegExp(schema.pattern));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, Math.max(40, schema.minLength ?? 0)) });
    case "integer":
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1e9), max: Math.min(schema.maximum ?? 1000, 1e9) });
    case "number":
      return fc.double({ min: Math.max(schema.minimum ?? -1e6, -1e12), max: Math.min(schema.maximum ?? 1e6, 1e12), noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(schema.items ? arbitraryFor(schema.items, root, depth + 1) : anyJson, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, Math.max(4, schema.minItems ?? 0)) });
    case "object": {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const required = new Set<string>(schema.required ?? []);
      const names = Object.keys(properties);
      if (!names.length) return fc.dictionary(fc.string({ maxLength: 10 }), anyJson, { maxKeys: 4 });
      // Usually the required fields are there; sometimes one goes missing.
      return fc.record(Object.fromEntries(names.map((n) => [n, arbitraryFor(properties[n]!, root, depth + 1)])), {
        requiredKeys: names.filter((n) => required.has(n)),
      });
    }
    default:
      return anyJson;
  }
}

const bodyFor = (op: Operation): fc.Arbitrary<string | undefined> => {
  if (!op.body && op.method === "GET") return fc.constant(undefined);
  const schema = op.body ? (jsonSchemaOf(op.body) as Schema) : {};
  return fc.oneof(
    { arbitrary: fuzzed(schema).map((v) => spliceDeep(JSON.stringify(v) ?? "null")), weight: 12 },
    { arbitrary: fc.constantFrom("", "{", "not json", "[1,2", '{"a":"\\ud800"}', "null"), weight: 2 },
  );
};

const queryFor = (op: Operation): fc.Arbitrary<string> => {
  const schema = op.query ? (jsonSchemaOf(op.query) as Schema) : { type: "object", properties: {} };
  const names = Object.keys(schema.properties ?? {});
  const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 500 }).map(String), hostileString);
  return fc
    .dictionary(names.length ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 })) : fc.string({ maxLength: 6 }), value, { maxKeys: 3 })
    .map((q) => {
      const entries = Object.entries(q).filter(([k]) => k.isWellFormed());
      return entries.length ? `?${entries.map(([k, v]) => `${encodeURIComponent(k)}=${v.isWellFormed() ? encodeURIComponent(v) : "%ED%A0%80"}`).join("&")}` : "";
    });
};

/** Fills `:param` segments with values that are sometimes plausible and sometimes not. */
const pathFor = (op: Operation): fc.Arbitrary<string> => {
  const params = [...op.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  if (!params.length) return fc.constant(op.path);
  const segment = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_-]{0,20}$/), fc.string({ minLength: 1, maxLength: 30 }), hostileString.filter((s) => s.length > 0 && s.isWellFormed()));
  return fc.tuple(...params.map(() => segment)).map((values) => {
    let i = 0;
    return op.path.replace(/:(\w+)/g, () => encodeURIComponent(values[i++]!));
  });
};

type Auth = "key" | "none" | "bogus" | "admin";
const authFor = (op: Operation): fc.Arbitrary<Auth> =>
  op.access === "admin"
    ? fc.constantFrom<Auth>("admin", "admin", "admin", "none", "bogus")
    : fc.constantFrom<Auth>("key", "key", "key", "key", "none", "bogus");

function expectEnvelope(r: Awaited<ReturnType<typeof call>>, what: string) {
  expect(r.status, `${what} -> ${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(500);
  expect(r.headers.get("x-request-id"), `${what}: x-request-id`).toMatch(/^[0-9a-f-]{36}$/);
  if (r.status < 400) return;
  expect(r.json, `${what}: error body is JSON: ${r.text.slice(0, 200)}`).toBeTypeOf("object");
  // The OpenAI-compatible surface answers OpenAI's error object around the same code (docs/compatibility.md).
  if (typeof r.json.error === "object" && r.json.error !== null) {
    expect(Object.keys(r.json), `${what}: OpenAI error object`).toEqual(["error"]);
    expect(ERROR_CODES, `${what}: ${r.text.slice(0, 200)}`).toContain(r.json.error.code);
    expect(statusOf(r.json.error.code), `${what}: status of ${r.json.error.code}`).toBe(r.status);
    expect(r.json.error.message, `${what}: message`).toBeTypeOf("string");
    return;
  }
  const code = (r.json.detail?.error ?? r.json.error) as ErrorCode;
  expect(ERROR_CODES, `${what}: ${r.text.slice(0, 200)}`).toContain(code);
  expect(statusOf(code), `${what}: status of ${code}`).toBe(r.status);
  const wrapped = new ApiError(code, { message: "" }).wrapped;
  const body = wrapped ? r.json.detail : r.json;
  expect(Object.keys(r.json), `${what}: ${wrapped ? "wrapped" : "flat"} shape of ${code}`).toEqual(wrapped ? ["detail"] : expect.arrayContaining(["error", "message"]));
  expect(body.message, `${what}: message`).toBeTypeOf("string");
}

describe("fuzz: every route, generated from its own schema (issue 16)", () => {
  it("the registry found the routes (a broken discovery would make this file pass vacuously)", () => {
    expect(OPERATIONS.length).toBeGreaterThan(30);
    expect(OPERATIONS.filter((o) => o.body).length).toBeGreaterThan(10);
    expect(OPERATIONS.map((o) => o.key)).toEqual(expect.arrayContaining(["POST /v1/chat/completions", "POST /v1/policy/check", "POST /v1/handoff", "GET /v1/audit/events"]));
  });

  it.each(OPERATIONS.map((o) => [o.key, o] as const))("%s: no 5xx, x-request-id, errors in their envelope", async (_key, op) => {
    const { key } = await newKey("corporate");
    await fc.assert(
      fc.asyncProperty(pathFor(op), queryFor(op), bodyFor(op), authFor(op), async (path, query, body, auth) => {
        const headers: Record<string, string> = {};
        if (body !== undefined) headers["content-type"] = "application/json";
        if (auth === "key") headers.authorization = `Bearer ${key}`;
        else if (auth === "admin") headers.authorization = `Bearer ${ADMIN_TOKEN}`;
        else if (auth === "bogus") headers.authorization = "Bearer svc_sk_" + "x".repeat(43);
        const r = await call(path + query, { method: op.method, body, headers });
        expectEnvelope(r, `${op.method} ${path}${query} [${auth}] ${body?.slice(0, 200) ?? ""}`);
      }),
      { numRuns: RUNS_PER_ROUTE, interruptAfterTimeLimit: TIME_PER_ROUTE_MS, markInterruptAsFailure: false, seed: SEED },
    );
  });
});
