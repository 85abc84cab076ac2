import { getTableColumns, getTableName } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * JSON text per statement, in UTF-16 units: D1 refuses a string over 1,000,000 bytes, and a unit is
 * at most 3 bytes of UTF-8.
 */
export const MAX_JSON_UNITS = 300_000;

function driverValue(column: SQLiteColumn, value: unknown): unknown {
  if (value === undefined) {
    const fallback = column.defaultFn?.() ?? column.default;
    if (fallback === undefined || fallback === null) return null;
    if (typeof fallback === "object" && !(fallback instanceof Date)) throw new Error(`column ${column.name}: an SQL default cannot be inserted as JSON; give the value`);
    value = fallback;
  }
  return value === null ? null : column.mapToDriverValue(value);
}

/**
 * Inserts many rows as ONE statement per ~300 KB, skipping rows whose key is already there:
 * `INSERT … SELECT json_extract(value, '$[i]') … FROM json_each(?) ON CONFLICT DO NOTHING`, the rows
 * bound as one JSON array of arrays, for the caller to run in a D1 batch (prepared on the binding itself: Drizzle 0.45's batch
 * cannot run a raw statement that has parameters). Why not Drizzle's multi-row `values()`: D1 binds at most 100
 * parameters per statement, which cut a batch of 50 usage rows into 9 statements, and every
 * statement is parsed, planned and (locally) carried through the D1 simulator on its own; measured
 * in workerd, 50 rows took 9-12 ms that way against 4-7 ms as one JSON statement, 200 rows 24-29 ms
 * against 7-8 ms. Values go through each column's own driver mapping (booleans as 0/1, JSON columns
 * as text), and `json_extract` returns JSON strings as TEXT and numbers as INTEGER or REAL.
 */
export function insertJsonRows(d1: D1Database, table: SQLiteTable, rows: readonly Record<string, unknown>[]): D1PreparedStatement[] {
  const columns = Object.entries(getTableColumns(table));
  const text =
    `INSERT INTO "${getTableName(table)}" (${columns.map(([, c]) => `"${c.name}"`).join(", ")}) ` +
    `SELECT ${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`;
  const statements: D1PreparedStatement[] = [];
  let part: string[] = [];
  let units = 2;
  const cut = () => statements.push(d1.prepare(text).bind(`[${part.join(",")}]`));
  for (const row of rows) {
    const json = JSON.stringify(columns.map(([key, c]) => driverValue(c, row[key])));
    if (part.length && units + json.length + 1 > MAX_JSON_UNITS) {
      cut();
      part = [];
      units = 2;
    }
    part.push(json);
    units += json.length + 1;
  }
  if (part.length) cut();
  return statements;
}
