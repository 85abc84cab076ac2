import { applyD1Migrations, env } from "cloudflare:test";

// Idempotent: storage is per test file, and this runs before each file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
