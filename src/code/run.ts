import { findModel, type Model, type ProviderId } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { worstCaseNanos } from "../cost/guard";
import { usdFromNanos } from "../cost/money";
import { estimatePromptTokens } from "../cost/tokens";
import { confidenceOf } from "../orchestrate/confidence";
import { answered, Operation, proofHead, type Answered, type OperationDeps, type Outcome } from "../orchestrate/operation";
import { POLICY, type Policy } from "../orchestrate/policy";
import { capped, chain, checkFits, diverse, type Chain, type Pool } from "../orchestrate/pool";
import type { CodeFile } from "../proof/orchestration";
import { seal } from "../proof/seal";
import { NoProviderConfigured } from "../providers/call";
import { apiError, ApiError } from "../shared/errors";
import { parseFiles } from "./files";
import { detectLanguage } from "./language";
import { coderPrompt, reviewerPrompt } from "./prompts";
import { parseVerdict, type Verdict } from "./review";
import type { CodeRequest } from "./schema";

export const ENDPOINT = "/v2/code";
/** Coders writing in parallel under `depth`. */
export const DEPTH_CODERS = 3;
/** The most a critic may write: a JSON verdict with a list of issues. */
export const REVIEW_MAX_TOKENS = 1024;

export interface CodeInput {
  requestId: string;
  startedAt: number;
  body: CodeRequest;
}

class NoCode extends Error {}

const writesCode: Eligibility = (m) => (m.capabilities.includes("code") ? null : "does not list code among its capabilities");
const ofTier = (tier: Model["tier"]): Eligibility => (m) => (m.tier === tier ? null : `is not a ${tier}-tier model`);
const otherProvider = (p: ProviderId): Eligibility => (m) => (m.provider === p ? "is from the coder's provider" : null);

/** `coder_model` / `reviewer_model` when a catalog id the request may use: pinned with the router's fallbacks. */
function pinnedChain(pool: Pool, id: string | undefined, messages: Parameters<typeof chain>[1], mode: Parameters<typeof chain>[2]): Chain | null {
  return id && findModel(id) ? chain(pool, messages, mode, [], id) : null;
}

/** The coders per policy: one cheap (efficiency), one mid (balanced), several of different providers (depth). */
function coders(pool: Pool, policy: Policy, body: CodeRequest, messages: Parameters<typeof chain>[1]): Chain[] {
  const pinned = pinnedChain(pool, body.coder_model, messages, POLICY[policy].mode);
  if (pinned) return [pinned];
  if (policy === "depth") return diverse(pool, messages, "quality", DEPTH_CODERS);
  const wanted = policy === "efficiency" ? [writesCode] : [writesCode, ofTier("mid")];
  const c = chain(pool, messages, POLICY[policy].mode, wanted) ?? chain(pool, messages, POLICY[policy].mode, [writesCode]) ?? chain(pool, messages, POLICY[policy].mode);
  return c ? [c] : [];
}

/** The critic: `reviewer_model`, else a code model of another provider than the coder where one is eligible. */
function reviewer(coderPool: Pool, policy: Policy, body: CodeRequest, messages: Parameters<typeof chain>[1], coder: Model): Chain | null {
  const mode = POLICY[policy].mode;
  // The critic writes a verdict, not the code.
  const pool = capped(coderPool, REVIEW_MAX_TOKENS);
  return pinnedChain(pool, body.reviewer_model, messages, mode) ?? chain(pool, messages, mode, [writesCode, otherProvider(coder.provider)]) ?? chain(pool, messages, mode, [writesCode]) ?? chain(pool, messages, mode);
}

interface Draft {
  outcome: Answered;
  files: CodeFile[];
  rejected: string[];
}

const draftOf = (o: Answered, language: string): Draft => ({ outcome: o, ...parseFiles(o.content, language) });

function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NoProviderConfigured) return apiError("no_provider_available", err.message);
  if (err instanceof NoCode) return apiError("no_code_produced", err.message);
  console.error("code run failed", err);
  return apiError("code_error", `The code engine raised: ${err instanceof Error ? err.message : String(err)}`);
}

/** POST /v2/code as a plain function (SPEC.md 4.3, response 2.4). The service never runs the code. */
export async function runCode(deps: OperationDeps, input: CodeInput) {
  const task = input.body.task.trim();
  if (!task) throw apiError("no_task", "task is empty: describe the code to write.");
  try {
    return await run(deps, input, task);
  } catch (err) {
    throw asApiError(err);
  }
}

async function run(deps: OperationDeps, { body, requestId, startedAt }: CodeInput, task: string) {
  const created = Math.floor(Date.now() / 1000);
  const calls = deps.calls;
  const detected = body.language ? null : detectLanguage(task);
  const language = body.language?.toLowerCase() ?? detected!.language;
  const settings = POLICY[body.policy];
  const op = new Operation(calls, { requestId, endpoint: ENDPOINT, mode: settings.mode, maxTokens: body.max_tokens, temperature: body.temperature, maxCostUsd: body.max_cost_usd ?? null });
  const pool: Pool = { allowedModels: calls.plan.models, brainConfig: {}, maxTokens: body.max_tokens, eligibility: [] };

  const firstPrompt = coderPrompt(task, language);
  checkFits(firstPrompt, body.max_tokens, calls.plan.models);
  const coderChains = coders(pool, body.policy, body, firstPrompt);
  if (!coderChains.length) throw apiError("no_provider_available", "No eligible model can write code for this request.");
  const critic = body.review ? reviewer(pool, body.policy, body, reviewerPrompt(task, language, []), coderChains[0]![0]!) : null;
  if (body.review && !critic) throw apiError("no_provider_available", "No eligible model can review code for this request.");
  op.stage("plan", [], {
    language,
    language_source: body.language ? "forced" : detected!.detected ? "detected" : "default",
    coders: coderChains.map((c) => c[0]!.id),
    reviewer: critic?.[0]!.id ?? null,
    max_iters: body.max_iters,
    review: body.review,
  });

  // generate:0, in parallel under depth.
  const first = await Promise.all(coderChains.map((candidates) => op.call({ role: "coder", candidates, messages: firstPrompt })));
  let drafts = answered(first).map((o) => draftOf(o, language)).filter((d) => d.files.length);
  op.stage("generate:0", first, { drafts: drafts.length, files: drafts.map((d) => d.files.length), rejected_paths: drafts.flatMap((d) => d.rejected) });
  if (!drafts.length) {
    const why = answered(first).length ? "the coder answered without a usable fenced code block" : "every coder call failed";
    throw new NoCode(`No usable code was produced: ${why}.`);
  }

  let best = drafts[0]!;
  let verdict: Verdict | null = null;
  let iterations = 1;
  let stopped: string | null = null;
  if (!critic) {
    op.stage("review:0", [], { skipped: "review: false" });
  } else {
    // review:0, one review per draft; the best-scored draft is kept (passed first).
    const reviews = await Promise.all(drafts.map((d) => op.call({ role: "reviewer", candidates: critic, messages: reviewerPrompt(task, language, d.files), maxTokens: REVIEW_MAX_TOKENS, temperature: 0 })));
    const verdicts = reviews.map((r) => (r.ok ? parseVerdict(r.content) : null));
    reviews.forEach((r, i) => r.ok && (r.confidence = verdicts[i]!.readable ? 1 : 0.25));
    if (!verdicts.some(Boolean)) throw new Error("every review call failed");
    const order = drafts.map((_, i) => i).filter((i) => verdicts[i]).sort((a, b) => Number(verdicts[b]!.passed) - Number(verdicts[a]!.passed) || verdicts[b]!.score - verdicts[a]!.score || a - b);
    best = drafts[order[0]!]!;
    verdict = verdicts[order[0]!]!;
    op.stage("review:0", reviews, { passed: verdict.passed, score: verdict.score, issues: verdict.issues.length, kept: best.outcome.model.id, readable: verdict.readable });
    drafts = [best];

    // Repairs: the kept draft's coder, with the issues in hand, until passed, max_iters or the budget.
    const coderChain = coderChains.find((c) => c.includes(best.outcome.model)) ?? coderChains[0]!;
    while (!verdict.passed && iterations < body.max_iters) {
      const repair = coderPrompt(task, language, { files: best.files, issues: verdict.issues });
      const draftWorst = worstCaseNanos(coderChain[0]!, { promptTokens: estimatePromptTokens(repair), maxTokens: body.max_tokens });
      const reviewWorst = worstCaseNanos(critic[0]!, { promptTokens: estimatePromptTokens(reviewerPrompt(task, language, [])) + body.max_tokens, maxTokens: REVIEW_MAX_TOKENS });
      if (!op.affords(draftWorst + reviewWorst)) {
        stopped = "max_cost_usd";
        op.stages.at(-1)!.detail.stopped = stopped;
        op.stages.at(-1)!.detail.next_worst_case_usd = usdFromNanos(draftWorst + reviewWorst);
        break;
      }
      const i = iterations;
      const gen: Outcome = await op.call({ role: "coder", candidates: coderChain, messages: repair });
      const next = gen.ok ? draftOf(gen, language) : null;
      iterations++;
      op.stage(`generate:${i}`, [gen], { files: next?.files.length ?? 0, rejected_paths: next?.rejected ?? [], kept_previous: !next?.files.length });
      if (next?.files.length) best = next;
      const rev = await op.call({ role: "reviewer", candidates: critic, messages: reviewerPrompt(task, language, best.files), maxTokens: REVIEW_MAX_TOKENS, temperature: 0 });
      if (rev.ok) {
        verdict = parseVerdict(rev.content);
        rev.confidence = verdict.readable ? 1 : 0.25;
      }
      op.stage(`review:${i}`, [rev], { passed: verdict.passed, score: verdict.score, issues: verdict.issues.length, readable: verdict.readable });
    }
    if (!verdict.passed && !stopped && iterations >= body.max_iters) stopped = "max_iters";
  }

  const passed = verdict?.passed ?? false;
  const score = verdict?.score ?? 0;
  // confidence = 0.4 P + 0.4 S + 0.2 F (docs/code-mode.md); without a review P and S are neutral.
  const confidence = confidenceOf({ agreement: verdict ? (passed ? 1 : 0) : null, judge: verdict ? score : null, finishReasons: [best.outcome.finishReason] });
  const reviewer_model = critic ? (op.modelsUsed.includes(critic[0]!.id) ? critic[0]!.id : (op.stages.flatMap((s) => s.results).find((r) => r.role === "reviewer" && r.ok)?.model ?? critic[0]!.id)) : null;
  const coderModels = [...new Set(op.stages.flatMap((s) => s.results).filter((r) => r.role === "coder" && r.ok).map((r) => r.model))];
  const reason = codeReason(body, language, detected, coderModels, reviewer_model, passed, iterations, stopped);
  const costUsd = op.spentNanos / 1e9;
  const sealed = seal("code", {
    requestId,
    created,
    endpoint: ENDPOINT,
    policy: body.policy,
    language,
    passed,
    iterations,
    modelsUsed: op.modelsUsed,
    confidence,
    task,
    files: best.files,
    stages: op.stages,
    usage: op.usage,
    costUsd,
    sandbox: op.sandbox,
    compliance: null,
  });
  // Signed and stored off the request path, through the write-behind buffer (docs/storage.md).
  deps.calls.keepReceipt(sealed);
  return {
    id: `svc-${requestId}`,
    object: "code" as const,
    created,
    task,
    language,
    policy: body.policy,
    reason,
    passed,
    iterations,
    files: best.files,
    review: verdict ? { passed, score, issues: verdict.issues, reviewer: reviewer_model } : null,
    usage: op.usage,
    svc: {
      code: {
        policy: body.policy,
        language,
        passed,
        score,
        confidence,
        iterations,
        coder_models: coderModels,
        reviewer_model,
        models_used: op.modelsUsed,
        latency_ms: Math.round(performance.now() - startedAt),
        calls: op.calls,
        stopped,
      },
      cost: { total_usd: costUsd, estimated: true as const },
      proof: {
        ...proofHead(requestId, sealed, body.policy),
        language,
        passed,
        models_used: op.modelsUsed,
        confidence,
        files_hash: sealed.receipt.files_hash,
        stages_hash: sealed.receipt.stages_hash,
        verifiable: true as const,
      },
      ...(body.include_trace ? { stages: op.stages } : {}),
      ...(op.sandbox ? { sandbox: true as const } : {}),
    },
  };
}

function codeReason(body: CodeRequest, language: string, detected: ReturnType<typeof detectLanguage> | null, coders: string[], reviewer: string | null, passed: boolean, iterations: number, stopped: string | null): string {
  const lang = body.language ? `${language} (forced)` : detected!.detected ? `${language} (detected from the task)` : `${language} (no language named; the default)`;
  const who = body.policy === "depth" ? `${coders.length} coders of different providers in parallel, the best draft kept` : body.policy === "efficiency" ? "one cheap coder" : `one ${findModel(coders[0]!)?.tier ?? "mid"}-tier coder`;
  if (!reviewer) return `Language ${lang}; ${body.policy} policy: ${who} (${coders.join(", ")}); review: false, so one draft and no critic.`;
  const end = passed
    ? `the review passed after ${iterations} iteration${iterations === 1 ? "" : "s"}`
    : stopped === "max_cost_usd"
      ? `stopped after ${iterations} iteration${iterations === 1 ? "" : "s"}: the next would pass max_cost_usd`
      : `the review had not passed when max_iters (${body.max_iters}) was reached`;
  return `Language ${lang}; ${body.policy} policy: ${who} (${coders.join(", ")}), reviewed by ${reviewer}; ${end}.`;
}


