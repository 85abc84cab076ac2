/**
 * Schema of a Durable Object's SQLite storage, set up idempotently on every wake and guarded by a
 * stored version row (the cloudflare/agents `ensureSchema` pattern). `steps[v]` takes the schema
 * from version v to v + 1; only the steps past the stored version run, in one transaction with the
 * version bump, so a step that fails leaves the object at its old version to retry on the next wake.
 * Never edit a released step: append a new one. Storage written before versioning (version 0, no
 * row) reruns every step, so write steps that tolerate a rerun (`IF NOT EXISTS` DDL).
 */
export function ensureSchema(storage: DurableObjectStorage, steps: ReadonlyArray<readonly string[]>): number {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)");
    const stored = sql.exec<{ version: number }>("SELECT version FROM schema_version WHERE id = 1").toArray()[0]?.version ?? 0;
    if (stored > steps.length) throw new Error(`storage schema version ${stored} is newer than this code (${steps.length})`);
    for (let v = stored; v < steps.length; v++) for (const statement of steps[v]!) sql.exec(statement);
    if (stored < steps.length) {
      sql.exec("INSERT INTO schema_version (id, version) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version", steps.length);
    }
    return steps.length;
  });
}
