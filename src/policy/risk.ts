import { firstForbiddenMatch, firstMatchingGlob, normalizeCommand } from "./match";

/**
 * The one risk scorer behind POST /v1/risk/score, POST /v1/policy/check and handoff creation.
 * Pure: the same action and manifest always give the same factors, score, tier and decision.
 * Score = sum of the weights of the factors that fired, capped at 100.
 */

const ACTION_KINDS = ["edit", "refactor", "deploy", "review", "setup", "delete", "exec", "network", "read"] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

export const RISK_TIERS = ["auto", "confirm", "approve", "block"] as const;
export type RiskTier = (typeof RISK_TIERS)[number];
export type Decision = "allow" | "confirm" | "approve" | "deny";

/** DESIGN.md section 4: auto 0-29, confirm 30-59, approve 60-85, block 86-100. */
const TIER_FLOORS: ReadonlyArray<readonly [RiskTier, number]> = [
  ["block", 86],
  ["approve", 60],
  ["confirm", 30],
  ["auto", 0],
];
const BLOCK_THRESHOLD = 86;

const DECISION_BY_TIER: Record<RiskTier, Decision> = { auto: "allow", confirm: "confirm", approve: "approve", block: "deny" };

/** Budget cap per action when the manifest names none (USD). */
const DEFAULT_BUDGET_CAP_USD = 1;
/** Beyond this many files an edit is a sweeping change. */
const BULK_FILE_THRESHOLD = 20;

/** The policy parts of a workspace manifest (SPEC.md 2.6) that scoring reads. */
export interface PolicyManifest {
  protected_paths?: readonly string[] | undefined;
  forbidden_commands?: readonly string[] | undefined;
  budget_cap_usd?: number | undefined;
}

export interface RiskInput {
  kind: ActionKind;
  /** Free text; scanned for secrets only (never for intent, which `kind` states). */
  action?: string | undefined;
  files: readonly string[];
  commands: readonly string[];
  estimatedCostUsd?: number | undefined;
}

export interface RiskFactor {
  id: string;
  label: string;
  weight: number;
  triggered: boolean;
  /** Why it fired: the matching file, command or amount. Absent when it did not fire. */
  detail?: string;
}

export interface RiskAssessment {
  score: number;
  tier: RiskTier;
  decision: Decision;
  factors: RiskFactor[];
  /** Ids of the factors that fired, in table order. */
  fired: string[];
  reason: string;
}

/** Commands dangerous in any workspace, whether or not the manifest lists them. */
const DESTRUCTIVE_COMMANDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\brm\s+(-[a-z]*r[a-z]*f|-[a-z]*f[a-z]*r|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\b/, "recursive forced delete"],
  [/\bgit\s+push\b.*(\s--force(?!-with-lease)\b|\s-f\b)/, "force push"],
  [/\bgit\s+reset\s+--hard\b/, "hard reset"],
  [/\bgit\s+clean\s+-[a-z]*f/, "git clean"],
  [/\bdrop\s+(table|database|schema)\b/, "drop of a table or database"],
  [/\btruncate\s+table\b/, "table truncation"],
  [/\bdelete\s+from\s+\S+\s*(;|$)/, "unbounded DELETE"],
  [/\bmkfs(\.\w+)?\b|\bdd\s+if=.*\bof=\/dev\//, "disk overwrite"],
  [/\bchmod\s+(-r\s+)?777\b/, "world-writable permissions"],
  [/(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b/, "piping a download into a shell"],
  [/\bterraform\s+destroy\b|\bkubectl\s+delete\b/, "infrastructure teardown"],
];

/** Paths and strings that hold or look like credentials. */
const SECRET_PATHS = [".env", ".env.*", "*.pem", "*.key", "*.p12", "id_rsa*", "id_ed25519*", ".npmrc", ".pypirc", "secrets/**", "credentials*", ".dev.vars"];
const SECRET_TEXT: readonly RegExp[] = [
  /\b(sk|svc_sk|pk_live|rk_live)_[0-9a-z]{16,}/i,
  /\bakia[0-9a-z]{16}\b/i,
  /\bgh[pousr]_[0-9a-z]{30,}/i,
  /-----begin [a-z ]*private key-----/i,
  /\b(password|passwd|secret|token|api[_-]?key)\s*[=:]\s*\S{6,}/i,
];
const NETWORK_COMMAND = /\b(curl|wget|ssh|scp|rsync|nc|netcat|ftp|telnet)\b|https?:\/\//;
const DEPLOY_COMMAND = /\b(wrangler\s+(deploy|publish)|vercel\s+(--prod|deploy)|kubectl\s+apply|terraform\s+apply|helm\s+(install|upgrade)|fly\s+deploy|firebase\s+deploy|npm\s+publish|cdk\s+deploy|serverless\s+deploy)\b/;

interface FactorRule {
  id: string;
  label: string;
  weight: number;
  /** A detail string when the factor fires, else undefined. */
  fires(input: RiskInput, manifest: PolicyManifest): string | undefined;
}

const firstHit = <T>(items: readonly T[], hit: (item: T) => string | undefined): string | undefined => {
  for (const item of items) {
    const d = hit(item);
    if (d !== undefined) return d;
  }
  return undefined;
};

/**
 * The factor table, in the order responses list it. Weights are chosen so that one forbidden command
 * blocks on its own, a protected path or a delete asks for confirmation, and two serious factors
 * together need approval (docs/governance.md has the table).
 */
export const RISK_FACTORS: readonly FactorRule[] = [
  {
    id: "forbidden_command",
    label: "Runs a command the workspace forbids",
    weight: 90,
    fires: (i, m) => firstHit(i.commands, (c) => {
      const f = firstForbiddenMatch(m.forbidden_commands ?? [], c);
      return f === undefined ? undefined : `\`${c}\` matches forbidden \`${f}\``;
    }),
  },
  {
    id: "protected_path",
    label: "Touches a protected path",
    weight: 40,
    fires: (i, m) => firstHit(i.files, (f) => {
      const g = firstMatchingGlob(m.protected_paths ?? [], f);
      return g === undefined ? undefined : `${f} matches protected \`${g}\``;
    }),
  },
  {
    id: "delete_action",
    label: "Deletes files or data",
    weight: 35,
    fires: (i) => (i.kind === "delete" ? "action kind is delete" : undefined),
  },
  {
    id: "destructive_command",
    label: "Runs a destructive command (recursive delete, force push, DROP TABLE, ...)",
    weight: 45,
    fires: (i) => firstHit(i.commands, (c) => {
      const n = normalizeCommand(c);
      const hit = DESTRUCTIVE_COMMANDS.find(([re]) => re.test(n));
      return hit ? `\`${c}\`: ${hit[1]}` : undefined;
    }),
  },
  {
    id: "deploy_action",
    label: "Deploys or publishes",
    weight: 30,
    fires: (i) =>
      i.kind === "deploy" ? "action kind is deploy" : firstHit(i.commands, (c) => (DEPLOY_COMMAND.test(normalizeCommand(c)) ? `\`${c}\` deploys` : undefined)),
  },
  {
    id: "secrets_exposure",
    label: "Touches credentials or carries a secret",
    weight: 35,
    fires: (i) =>
      firstHit(i.files, (f) => {
        const g = firstMatchingGlob(SECRET_PATHS, f);
        return g === undefined ? undefined : `${f} is a secrets file`;
      }) ??
      firstHit([...i.commands, i.action ?? ""], (t) => (SECRET_TEXT.some((re) => re.test(t)) ? "a command or the action text contains a credential" : undefined)),
  },
  {
    id: "budget_over_cap",
    label: "Estimated cost is over the budget cap",
    weight: 30,
    fires: (i, m) => {
      const cap = m.budget_cap_usd ?? DEFAULT_BUDGET_CAP_USD;
      return i.estimatedCostUsd !== undefined && i.estimatedCostUsd > cap ? `estimated ${i.estimatedCostUsd} USD > cap ${cap} USD` : undefined;
    },
  },
  {
    id: "exec_action",
    label: "Executes commands",
    weight: 15,
    fires: (i) => (i.kind === "exec" ? "action kind is exec" : i.commands.length ? `${i.commands.length} command(s) to run` : undefined),
  },
  {
    id: "network_access",
    label: "Reaches the network",
    weight: 20,
    fires: (i) => (i.kind === "network" ? "action kind is network" : firstHit(i.commands, (c) => (NETWORK_COMMAND.test(normalizeCommand(c)) ? `\`${c}\` uses the network` : undefined))),
  },
  {
    id: "bulk_change",
    label: `Changes more than ${BULK_FILE_THRESHOLD} files`,
    weight: 15,
    fires: (i) => (i.files.length > BULK_FILE_THRESHOLD ? `${i.files.length} files` : undefined),
  },
];

export function tierFor(score: number): RiskTier {
  for (const [tier, floor] of TIER_FLOORS) if (score >= floor) return tier;
  return "auto";
}

export function assessRisk(input: RiskInput, manifest: PolicyManifest): RiskAssessment {
  const factors: RiskFactor[] = RISK_FACTORS.map((rule) => {
    const detail = rule.fires(input, manifest);
    return detail === undefined
      ? { id: rule.id, label: rule.label, weight: rule.weight, triggered: false }
      : { id: rule.id, label: rule.label, weight: rule.weight, triggered: true, detail };
  });
  const fired = factors.filter((f) => f.triggered);
  const score = Math.min(100, fired.reduce((sum, f) => sum + f.weight, 0));
  const tier = tierFor(score);
  const decision = DECISION_BY_TIER[tier];
  return { score, tier, decision, factors, fired: fired.map((f) => f.id), reason: explain(score, tier, decision, fired) };
}

function explain(score: number, tier: RiskTier, decision: Decision, fired: RiskFactor[]): string {
  const why = fired.length ? fired.map((f) => `${f.id} +${f.weight} (${f.detail})`).join("; ") : "no risk factor fired";
  switch (decision) {
    case "deny":
      return `Denied: risk score ${score} is at or above the block threshold of ${BLOCK_THRESHOLD}. ${why}.`;
    case "approve":
      return `Needs human approval: risk score ${score} is in the approve tier (60-85). ${why}.`;
    case "confirm":
      return `Needs confirmation: risk score ${score} is in the confirm tier (30-59). ${why}.`;
    default:
      return `Allowed: risk score ${score} is in the auto tier (0-29). ${why}.`;
  }
}
