/** Service version, reported by GET /health. Keep in step with package.json. */
export const SERVICE_VERSION = "0.1.0";
