import type { TokenUsage } from "../cost/tokens";
import { hashCanonical, type HashString } from "../shared/hash";

/**
 * The orchestration and code receipts (SPEC.md 2.2, versions svc-orchestration-v1 and svc-code-v1).
 * Like the chat receipt they hold what ran and hashes, never prompt, answer or code text:
 * `stages_hash` covers the execution stages exactly as `svc.stages` shows them, so the proof hash
 * (sha256 of the canonical receipt) is a hash over the stages. docs/proofs.md has a worked example.
 */

/** A stage as `svc.stages[]` shows it: any JSON, hashed in canonical form. */
export type ExecutionStage = { name: string; results: readonly unknown[]; detail: unknown };

export interface OrchestrationReceipt {
  version: "svc-orchestration-v1";
  request_id: string;
  timestamp: string;
  endpoint: string;
  policy: string;
  strategy: string;
  models_used: string[];
  confidence: number;
  agreement: number;
  request_hash: HashString;
  response_hash: HashString;
  stages_hash: HashString;
  usage: TokenUsage;
  cost_usd: number;
  sandbox: boolean;
  /** The compliance attestation hash when a compliance policy was in force, else null. */
  compliance: HashString | null;
}

export interface OrchestrationFacts {
  requestId: string;
  /** Unix seconds. */
  created: number;
  endpoint: string;
  policy: string;
  strategy: string;
  modelsUsed: readonly string[];
  confidence: number;
  agreement: number;
  /** The request as hashed: messages (role, content) and the parameters applied. */
  request: { messages: ReadonlyArray<{ role: string; content: string }>; max_tokens: number; temperature: number };
  content: string;
  stages: readonly ExecutionStage[];
  usage: TokenUsage;
  costUsd: number;
  sandbox: boolean;
  compliance: HashString | null;
}

export const stagesHash = (stages: readonly ExecutionStage[]): HashString => hashCanonical(stages);

export function orchestrationReceipt(f: OrchestrationFacts): OrchestrationReceipt {
  return {
    version: "svc-orchestration-v1",
    request_id: f.requestId,
    timestamp: new Date(f.created * 1000).toISOString(),
    endpoint: f.endpoint,
    policy: f.policy,
    strategy: f.strategy,
    models_used: [...f.modelsUsed],
    confidence: f.confidence,
    agreement: f.agreement,
    request_hash: hashCanonical({
      messages: f.request.messages.map((m) => ({ role: m.role, content: m.content })),
      policy: f.policy,
      strategy: f.strategy,
      max_tokens: f.request.max_tokens,
      temperature: f.request.temperature,
    }),
    response_hash: hashCanonical({ content: f.content }),
    stages_hash: stagesHash(f.stages),
    usage: f.usage,
    cost_usd: f.costUsd,
    sandbox: f.sandbox,
    compliance: f.compliance,
  };
}

export interface CodeFile {
  path: string;
  language: string;
  content: string;
  bytes: number;
}

export interface CodeReceipt {
  version: "svc-code-v1";
  request_id: string;
  timestamp: string;
  endpoint: string;
  policy: string;
  language: string;
  passed: boolean;
  iterations: number;
  models_used: string[];
  confidence: number;
  task_hash: HashString;
  files_hash: HashString;
  stages_hash: HashString;
  usage: TokenUsage;
  cost_usd: number;
  sandbox: boolean;
  compliance: HashString | null;
}

export interface CodeFacts {
  requestId: string;
  created: number;
  endpoint: string;
  policy: string;
  language: string;
  passed: boolean;
  iterations: number;
  modelsUsed: readonly string[];
  confidence: number;
  task: string;
  files: readonly CodeFile[];
  stages: readonly ExecutionStage[];
  usage: TokenUsage;
  costUsd: number;
  sandbox: boolean;
  compliance: HashString | null;
}

export function codeReceipt(f: CodeFacts): CodeReceipt {
  return {
    version: "svc-code-v1",
    request_id: f.requestId,
    timestamp: new Date(f.created * 1000).toISOString(),
    endpoint: f.endpoint,
    policy: f.policy,
    language: f.language,
    passed: f.passed,
    iterations: f.iterations,
    models_used: [...f.modelsUsed],
    confidence: f.confidence,
    task_hash: hashCanonical({ task: f.task }),
    files_hash: hashCanonical(f.files.map((x) => ({ path: x.path, language: x.language, content: x.content, bytes: x.bytes }))),
    stages_hash: stagesHash(f.stages),
    usage: f.usage,
    cost_usd: f.costUsd,
    sandbox: f.sandbox,
    compliance: f.compliance,
  };
}
