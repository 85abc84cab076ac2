type SvcEnv = import("../src/env").Env;

declare namespace Cloudflare {
  interface Env extends SvcEnv {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
  interface Exports {
    default: Fetcher;
  }
}
