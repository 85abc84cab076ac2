import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * Three projects, all run by `npm test`:
 * - "node": pure cores (`test/**\/*.node.test.ts`), run in plain Node. No bindings, no workerd: a pure
 *   module that grows a `cloudflare:` import fails here, which is how STYLE.md's "pure cores, tested
 *   without a runtime" is enforced. About 8x faster per file than the same test in workerd.
 * - "workers": everything else, inside workerd with local D1, KV and Durable Objects.
 * - "workers-unsigned": `test/**\/*.unsigned.test.ts`, the same Worker without a signing key.
 * Run one: `npx vitest run --project node` (or `--project workers`).
 */
const NODE_TESTS = "test/**/*.node.test.ts";
const UNSIGNED_TESTS = "test/**/*.unsigned.test.ts";

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  const workers = (name: string, include: string[], exclude: string[], bindings: Record<string, string>) => ({
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            SANDBOX_UPSTREAM: "on",
            ADMIN_TOKEN: "test-admin-token",
            // Real backoff (200 ms steps) made the fallback tests wait seconds for nothing; the
            // retry policy's own timing is unit-tested with explicit knobs (test/providers/retry.test.ts).
            UPSTREAM_RETRY_BASE_MS: "1",
            CORS_ORIGINS: "https://app.example",
            ...bindings,
          },
        },
      }),
    ],
    // FUZZ_SEED reaches the fuzz test through `inject`: workerd's process.env does not see the shell's.
    test: { name, include, exclude, setupFiles: ["./test/setup/apply-migrations.ts"], testTimeout: 30_000, provide: { fuzzSeed: process.env.FUZZ_SEED ?? "" } },
  });
  return {
    test: {
      projects: [
        {
          test: {
            name: "node",
            environment: "node",
            include: [NODE_TESTS],
          },
        },
        workers("workers", ["test/**/*.test.ts"], ["test/e2e/**", NODE_TESTS, UNSIGNED_TESTS], {
          // A fixed Ed25519 seed so signatures are checkable; never used outside tests.
          LEDGER_SIGNING_KEY: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
          // A key retired by a rotation (RFC 8032 section 7.1, test 2's public key): still published and verified.
          LEDGER_RETIRED_KEYS: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        }),
        // The same Worker with no signing key provisioned (unsigned receipts and handoffs), instead of
        // swapping an object's env from a test.
        workers("workers-unsigned", [UNSIGNED_TESTS], [], { LEDGER_SIGNING_KEY: "" }),
      ],
    },
  };
});
