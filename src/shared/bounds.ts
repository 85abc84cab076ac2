import { z } from "zod";

/**
 * Size bounds for client text that is stored. Production D1 rejects a string or a row over 1,000,000
 * bytes (local D1 accepts it, so only production would fail, with a 500). Every stored field that a
 * client fills is bounded in its schema so that a whole row stays well under that, and a request over
 * a bound gets a 400 naming the field and the limit. docs/ledger.md ("Storage bounds") has the budget.
 */
export const D1_MAX_ROW_BYTES = 1_000_000;

/** Bytes of the JSON text a value is stored as (UTF-8, with JSON's escapes); Infinity if it cannot be written. */
export function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value) ?? "").length;
  } catch {
    // Too deep for the engine's JSON writer (a RangeError) or not serializable: over any bound.
    return Number.POSITIVE_INFINITY;
  }
}

/** The schema, with its value's stored JSON at most `max` bytes; the issue names the limit. */
export const jsonAtMost = <T extends z.ZodType>(schema: T, max: number) =>
  schema.refine((v) => jsonBytes(v) <= max, { message: `at most ${max} bytes as stored JSON (UTF-8)` });
