/** Small helpers over plain data, said once here. */

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The distinct items, in first-seen order. */
export const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
