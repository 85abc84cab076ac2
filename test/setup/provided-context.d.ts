// What vitest.config.ts hands the workers projects through `provide`; tests read it with `inject`.
declare module "vitest" {
  export interface ProvidedContext {
    /** FUZZ_SEED from the shell, or "": test/foundation/fuzz.test.ts replays that seed. */
    fuzzSeed: string;
  }
}

export {};
