import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** In-Worker tests: the Worker runs in workerd with local D1, KV and Durable Objects. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            SANDBOX_UPSTREAM: "on",
            ADMIN_TOKEN: "test-admin-token",
            // A fixed Ed25519 seed so signatures are checkable; never used outside tests.
            LEDGER_SIGNING_KEY: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["./test/setup/apply-migrations.ts"],
      testTimeout: 30_000,
    },
  };
});
