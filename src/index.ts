import { app } from "./app";

export { RateLimiter } from "./limits/rate-limiter";
export { WorkspaceLedger } from "./handoff/ledger";

export default { fetch: app.fetch } satisfies ExportedHandler<import("./env").Env>;
