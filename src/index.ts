import { app } from "./app";

export { RateLimiter } from "./limits/rate-limiter";
export { WorkspaceLedger } from "./handoff/ledger";
export { UsageBuffer } from "./calls/usage-buffer";

export default { fetch: app.fetch } satisfies ExportedHandler<import("./env").Env>;
