import { app } from "./app";
import { UsageBuffer as UsageBufferObject } from "./calls/usage-buffer";
import { WorkspaceLedger as WorkspaceLedgerObject } from "./handoff/ledger";
import { RateLimiter as RateLimiterObject } from "./limits/rate-limiter";
import { meteredDurableObject, withStorageMeter } from "./shared/storage-meter";

// The classes as they are unless STORAGE_METER is on (the bench's metered twin only): then their
// own storage calls are counted too (src/shared/storage-meter.ts).
export const RateLimiter = meteredDurableObject(RateLimiterObject);
export const WorkspaceLedger = meteredDurableObject(WorkspaceLedgerObject);
export const UsageBuffer = meteredDurableObject(UsageBufferObject);

export default { fetch: withStorageMeter(app.fetch) } satisfies ExportedHandler<import("./env").Env>;
