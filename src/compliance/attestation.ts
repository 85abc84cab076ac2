import type { DataClass } from "./matrix";
import type { CompiledPolicy } from "./policy";

/**
 * The facts of a compliance attestation: the gate's decision for one model. `src/proof/` turns them
 * into the `svc-attestation-v1` receipt (the facts plus its version), hashes, signs and stores it;
 * docs/compliance.md has the formula and a worked example a third party can recompute.
 */
export interface AttestationFacts {
  policy: CompiledPolicy;
  detected_classes: DataClass[];
  model: string;
  matrix_version: string;
  timestamp: string;
  request_id: string;
}
