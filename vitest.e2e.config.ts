import { defineConfig } from "vitest/config";

/**
 * End-to-end tests in Node: `npm run dev` is started once (test/e2e/dev-server.ts) and driven
 * over HTTP with real clients (fetch, the openai SDK, the MCP SDK client, the key CLI).
 */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["./test/e2e/dev-server.ts"],
    testTimeout: 60_000,
    hookTimeout: 150_000,
    fileParallelism: false,
  },
});
