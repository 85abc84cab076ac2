import { version } from "../package.json";

/** Service version, reported by GET /health: package.json's, so there is one place to bump it. */
export const SERVICE_VERSION: string = version;
