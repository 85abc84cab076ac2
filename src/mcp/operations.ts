import { z } from "zod";

/**
 * What the routes cannot say about themselves: a summary, the MCP tool name (when the operation is a
 * tool) and the response body. Methods, paths, access and request schemas are read off the app
 * (registry.ts), so nothing here repeats a route; `test/mcp/registry.test.ts` fails when a route has
 * no entry here or an entry has no route.
 */
export interface OperationDoc {
  summary: string;
  /** The MCP tool name; absent for operations that are not tools (admin, owner key management, the MCP transport itself). */
  tool?: string;
  response: z.ZodType;
}

const obj = (shape: z.ZodRawShape = {}) => z.looseObject(shape);
const list = (item: z.ZodType) => obj({ object: z.literal("list"), data: z.array(item) });
const hash = z.string().describe("sha256: + 64 lowercase hex");
const chatCompletion = obj({ id: z.string(), object: z.literal("chat.completion"), created: z.int(), model: z.string(), choices: z.array(obj()), usage: obj(), svc: obj() });
const runState = obj({ object: z.literal("agent.run"), run_id: z.string(), status: z.string(), cost_consumed_usd: z.number(), steps_taken: z.int(), trajectory_proof: hash.nullable(), output: z.string() });
const verification = obj({ valid: z.boolean(), recomputed_proof: hash, mismatched_steps: z.array(z.int()) });
const ownerKey = obj({ id: z.string(), object: z.literal("api_key"), prefix: z.string(), plan: z.string(), created_at: z.string(), last_used_at: z.string().nullable(), revoked_at: z.string().nullable(), current: z.boolean() });
const handoff = obj({ id: z.string(), workspace_id: z.string(), seq: z.int(), hash, signature: z.string().nullable() });

export const OPERATIONS: Record<string, OperationDoc> = {
  "GET /health": { summary: "Liveness and the service version.", response: obj({ status: z.string(), version: z.string() }) },
  "GET /v1/models": { summary: "The model catalog (OpenAI list form plus prices, tier, capabilities).", tool: "list_models", response: list(obj({ id: z.string(), object: z.literal("model") })) },
  "GET /v1/plans": { summary: "The plans and their limits.", tool: "list_plans", response: list(obj({ id: z.string() })) },
  "GET /v1/models/:model_id": { summary: "One catalog model: OpenAI's model object plus prices, tier and capabilities; 404 model_not_found.", tool: "get_model", response: obj({ id: z.string(), object: z.literal("model") }) },
  "POST /v1/responses": { summary: "The OpenAI Responses API (text and function tools, plain or streamed), state-free, on the chat pipeline; svc block.", tool: "create_response", response: obj({ id: z.string(), object: z.literal("response"), status: z.string(), output: z.array(obj()), svc: obj() }) },
  "POST /v1/chat/completions": { summary: "OpenAI-compatible chat completion, routed (`model: auto`) or pinned; svc block with routing, cost and proof.", tool: "chat_completion", response: chatCompletion },
  "POST /v1/route": { summary: "Routing preview: the model a chat request would get, with the reason and a worst-case cost; no model is called.", tool: "route_preview", response: obj({ object: z.literal("route"), model: z.string(), svc: obj() }) },
  "GET /v1/usage": { summary: "Usage of the key's owner: totals by model, provider and mode, limits, recent calls.", tool: "get_usage", response: obj({ object: z.literal("usage"), total_requests: z.int(), total_cost_usd: z.number() }) },
  "GET /v1/usage/daily": { summary: "The owner's requests, tokens, spend and savings against a baseline per UTC day over the last `days` days (1-90, default 30), oldest first.", tool: "get_daily_usage", response: obj({ object: z.literal("usage.daily"), baseline_model: z.string(), days: z.int(), data: z.array(obj({ date: z.string(), requests: z.int(), cost_usd: z.number(), saved_usd: z.number() })) }) },
  "GET /v1/savings": { summary: "What the owner's calls would have cost on a baseline model.", tool: "get_savings", response: obj({ object: z.literal("savings"), saved_usd: z.number() }) },
  "GET /v1/proof/pubkey": { summary: "The Ed25519 keys that sign receipts and handoffs (active and retired).", tool: "get_public_key", response: obj({ object: z.literal("proof.pubkey"), keys: z.array(obj()) }) },
  "GET /v1/proof/:request_id": { summary: "Verify a proof receipt by request id.", tool: "verify_receipt", response: obj({ object: z.literal("proof.verification"), valid: z.boolean(), receipt: obj() }) },
  "POST /v1/workspace/readiness": { summary: "Score a workspace manifest's readiness for AI agents (12 weighted checks).", tool: "workspace_readiness", response: obj({ score: z.number(), rating: z.string(), checks: z.array(obj()) }) },
  "POST /v1/workspace/generate": { summary: "Generate AGENTS.md and editor rule files from a workspace manifest.", tool: "workspace_generate", response: obj({ files: z.array(obj()) }) },
  "GET /v1/workspace/:workspace_id/snapshot": { summary: "An audit snapshot of a workspace's handoff chain.", tool: "workspace_snapshot", response: obj({ workspace_id: z.string() }) },
  "POST /v1/handoff": { summary: "Append a signed, hash-chained handoff to a workspace's ledger.", tool: "create_handoff", response: handoff },
  "GET /v1/handoff/:handoff_id": { summary: "Fetch one handoff.", tool: "get_handoff", response: handoff },
  "GET /v1/handoff/chain/:workspace_id": { summary: "A workspace's handoff chain with its verification.", tool: "get_handoff_chain", response: obj({ data: z.array(handoff), verification: obj() }) },
  "POST /v1/policy/check": { summary: "Policy decision (allow, confirm, approve, deny) for an agent action, recorded in the audit log.", tool: "policy_check", response: obj({ decision: z.string(), risk_score: z.number(), risk_tier: z.string(), event_id: z.string() }) },
  "POST /v1/risk/score": { summary: "Risk score of an action (dry run, no side effects).", tool: "risk_score", response: obj({ score: z.number(), tier: z.string(), factors: z.array(obj()) }) },
  "GET /v1/audit/events": { summary: "The owner's audit log, newest first, filtered and paged.", tool: "list_audit_events", response: list(obj({ id: z.string(), event_type: z.string() })) },
  "GET /v1/skills": { summary: "The 23 skills.", tool: "list_skills", response: list(obj({ id: z.string(), name: z.string() })) },
  "GET /v1/skills/:skill_id": { summary: "One skill with its full text.", tool: "get_skill", response: obj({ id: z.string(), name: z.string() }) },
  "POST /v1/skills/:skill_id/invoke": { summary: "Run a skill: its text is the system prompt, `task` the user message; a chat completion with svc.skill.", tool: "invoke_skill", response: chatCompletion },
  "POST /v1/brain/validate": { summary: "Validate a brain config (BRAIN.md text or object): errors, warnings, the normalised config.", tool: "validate_brain_config", response: obj({ valid: z.boolean(), errors: z.array(z.string()), warnings: z.array(z.string()), config: obj().nullable() }) },
  "POST /v1/brain/share": { summary: "Share a brain config under a short public id.", tool: "share_brain_config", response: obj({ share_id: z.string(), url: z.string() }) },
  "GET /v1/brain/shares": { summary: "The owner's shared brain configs, newest first.", tool: "list_brain_shares", response: list(obj({ share_id: z.string() })) },
  "GET /v1/b/:share_id": { summary: "A shared brain config by its short public id (immutable, cacheable).", tool: "get_brain_share", response: obj({ share_id: z.string(), config: obj(), valid: z.boolean() }) },
  "GET /b/:share_id": { summary: "The short form of GET /v1/b/{share_id}.", response: obj({ share_id: z.string(), config: obj(), valid: z.boolean() }) },
  "GET /v1/brain/badge": { summary: "A shields-style SVG badge naming the model a brain config routes to (image/svg+xml).", response: z.string().describe("SVG") },
  "POST /v2/compliance/preview": { summary: "Compliance gate dry run: classify the prompt's data, filter models by a policy, attest the cheapest compliant one; no model is called. 422 when neither prompt nor messages has text.", tool: "compliance_preview", response: obj({ active: z.boolean(), detected_classes: z.array(z.string()), ok: z.boolean().optional(), allowed_models: z.array(z.string()).optional(), excluded_models: z.record(z.string(), z.array(z.string())).optional(), decision: obj().optional(), matrix_version: z.string().optional() }) },
  "POST /v2/orchestrate": { summary: "Run one prompt across several models with a strategy (cascade, ensemble, rank-fuse, decompose, self-consistency, debate) and policy; one answer with stages, confidence, agreement and a proof.", tool: "orchestrate", response: obj({ object: z.literal("orchestration"), strategy: z.string(), choices: z.array(obj()), usage: obj(), svc: obj() }) },
  "POST /v2/code": { summary: "Code mode: a coder writes files, a critic of another provider reviews them, the coder repairs until the review passes or a cap; the code is never run.", tool: "generate_code", response: obj({ object: z.literal("code"), language: z.string(), passed: z.boolean(), iterations: z.int(), files: z.array(obj()), svc: obj() }) },
  "POST /v1/agent/run": { summary: "Run an agent on a goal under a hard spend cap; every step proven in a trajectory.", tool: "agent_run", response: runState },
  "GET /v1/agent/runs": { summary: "The owner's agent runs, newest first.", tool: "list_agent_runs", response: list(runState) },
  "GET /v1/agent/:run_id": { summary: "An agent run's state.", tool: "get_agent_run", response: runState },
  "GET /v1/agent/:run_id/trajectory": { summary: "An agent run's steps, re-verified; with full=true the bundle to verify elsewhere.", tool: "get_agent_trajectory", response: obj({ object: z.literal("agent.trajectory"), steps: z.array(obj()), verification: verification }) },
  "POST /v1/agent/:run_id/cancel": { summary: "Cancel a run (runs are synchronous, so this returns its final state).", tool: "cancel_agent_run", response: runState },
  "POST /v1/agent/verify": { summary: "Verify an agent trajectory bundle by deterministic replay; locates tampered steps.", tool: "verify_trajectory", response: verification },
  "GET /openapi.json": { summary: "This OpenAPI 3.1 document.", response: obj({ openapi: z.string(), paths: obj() }) },
  "GET /v1/mcp/manifest": { summary: "The MCP tool manifest (SPEC.md 2.19).", response: obj({ object: z.literal("mcp.manifest"), tools: z.array(obj()) }) },
  "GET /v1/keys": { summary: "The caller owner's API keys, newest first: prefix, plan, created, last used, revoked (never the secret).", response: list(ownerKey) },
  "POST /v1/keys": { summary: "Create an API key for the caller's owner on the caller's plan; the secret is in this response only.", response: ownerKey.extend({ key: z.string() }) },
  "DELETE /v1/keys/:key_id": { summary: "Revoke one of the caller owner's API keys (within a second everywhere); 404 key_not_found for another owner's key.", response: ownerKey },
  "POST /v1/keys/:key_id/rotate": { summary: "Rotate one of the caller owner's keys: a new key on the caller's plan and the old one revoked, in one transaction.", response: ownerKey.extend({ key: z.string(), revoked: ownerKey }) },
  "POST /admin/keys": { summary: "Mint an API key (ADMIN_TOKEN).", response: obj({ key: z.string() }) },
  "GET /admin/keys": { summary: "List API keys (ADMIN_TOKEN).", response: list(obj()) },
  "DELETE /admin/keys/:id": { summary: "Revoke an API key (ADMIN_TOKEN).", response: obj() },
};
