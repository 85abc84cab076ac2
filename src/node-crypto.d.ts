// The one Node API the Worker uses: node:crypto's synchronous hash (Workers' Node.js compatibility,
// on by default from compatibility date 2026-08-04). Declared here rather than pulling @types/node
// into the Worker's types, which would also declare Buffer, process and the rest as if available.
declare module "node:crypto" {
  interface Hash {
    update(data: string | Uint8Array): Hash;
    digest(encoding: "hex"): string;
    /** A Buffer, which is a Uint8Array. */
    digest(): Uint8Array;
  }
  export function createHash(algorithm: "sha256"): Hash;
}
