import { app } from "./app";
import { withStorageMeter } from "./shared/storage-meter";

export { RateLimiter } from "./limits/rate-limiter";
export { WorkspaceLedger } from "./handoff/ledger";
export { UsageBuffer } from "./calls/usage-buffer";

export default { fetch: withStorageMeter(app.fetch) } satisfies ExportedHandler<import("./env").Env>;
