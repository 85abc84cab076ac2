import { firstForbiddenMatch, firstMatchingGlob } from "../policy/match";
import type { WorkspaceManifest } from "../policy/manifest";

/**
 * The readiness checks: what a careful team states before letting agents into a repository.
 * Data, read by readiness.ts. Weights sum to 100, so a check's weight is its share of the score.
 * Path and command checks ask the same matchers the risk scorer uses: "does this manifest protect
 * `.env`?" is answered exactly as a policy check on `.env` would be.
 */
export interface ReadinessCheck {
  id: string;
  label: string;
  weight: number;
  /** Advice shown when the check fails. */
  rec: string;
  passes(m: WorkspaceManifest): boolean;
}

const protects = (m: WorkspaceManifest, ...samples: string[]) => samples.some((p) => firstMatchingGlob(m.protected_paths ?? [], p) !== undefined);
const forbids = (m: WorkspaceManifest, ...samples: string[]) => samples.every((c) => firstForbiddenMatch(m.forbidden_commands ?? [], c) !== undefined);
const nonEmpty = (list: readonly string[] | undefined) => (list?.length ?? 0) > 0;

export const READINESS_CHECKS: readonly ReadinessCheck[] = [
  {
    id: "handoffs_required",
    label: "Agents must create a signed handoff",
    weight: 14,
    rec: "Set require_handoffs: true so every agent records a signed handoff (POST /v1/handoff) before passing work on; the chain is then verifiable end to end.",
    passes: (m) => m.require_handoffs === true,
  },
  {
    id: "risk_gate_required",
    label: "Agents must pass the risk gate",
    weight: 14,
    rec: "Set require_risk_gate: true so agents call POST /v1/policy/check before risky actions and stop on deny.",
    passes: (m) => m.require_risk_gate === true,
  },
  {
    id: "protected_paths_declared",
    label: "Protected paths are declared",
    weight: 10,
    rec: "List the paths that need human approval before an agent writes them in protected_paths (globs such as .env*, .github/workflows/**, migrations/**).",
    passes: (m) => nonEmpty(m.protected_paths),
  },
  {
    id: "forbidden_commands_declared",
    label: "Forbidden commands are declared",
    weight: 10,
    rec: "List the commands an agent must never run in forbidden_commands (for example rm -rf, git push --force, DROP TABLE).",
    passes: (m) => nonEmpty(m.forbidden_commands),
  },
  {
    id: "secrets_protected",
    label: "Secrets files are protected",
    weight: 9,
    rec: "Protect credentials: add .env, .env.* and *.pem (or secrets/**) to protected_paths.",
    passes: (m) => protects(m, ".env") && protects(m, ".env.production", "config/.env.local") && protects(m, "certs/server.pem", "secrets/api.key", "id_rsa"),
  },
  {
    id: "forbids_recursive_delete",
    label: "Recursive forced delete is forbidden",
    weight: 8,
    rec: "Add rm -rf to forbidden_commands; a recursive forced delete is the fastest way for an agent to lose work.",
    passes: (m) => forbids(m, "rm -rf /"),
  },
  {
    id: "forbids_force_push",
    label: "Force push is forbidden",
    weight: 8,
    rec: "Add git push --force (and git push -f) to forbidden_commands so shared history cannot be rewritten.",
    passes: (m) => forbids(m, "git push --force origin main", "git push -f origin main"),
  },
  {
    id: "forbids_drop_table",
    label: "Dropping tables is forbidden",
    weight: 6,
    rec: "Add DROP TABLE (and DROP DATABASE) to forbidden_commands; schema changes belong in reviewed migrations.",
    passes: (m) => forbids(m, "DROP TABLE users"),
  },
  {
    id: "ci_protected",
    label: "CI configuration is protected",
    weight: 6,
    rec: "Protect CI definitions (.github/workflows/**, .gitlab-ci.yml) so an agent cannot weaken the checks that judge its own work.",
    passes: (m) => protects(m, ".github/workflows/ci.yml", ".gitlab-ci.yml", ".circleci/config.yml"),
  },
  {
    id: "migrations_or_infra_protected",
    label: "Migrations or infrastructure are protected",
    weight: 5,
    rec: "Protect database migrations and deployment configuration (migrations/**, infra/**, wrangler.toml, Dockerfile).",
    passes: (m) => protects(m, "migrations/0001_init.sql", "db/migrations/0001_init.sql", "infra/main.tf", "terraform/main.tf", "wrangler.toml", "Dockerfile"),
  },
  {
    id: "project_named",
    label: "Project has a name",
    weight: 5,
    rec: "Set project_name so generated instruction files and handoffs say which project they govern.",
    passes: (m) => m.project_name !== undefined && m.project_name.length > 0,
  },
  {
    id: "stack_declared",
    label: "Technology stack is declared",
    weight: 5,
    rec: "List the stack (languages, frameworks, runtimes) so agents follow its conventions and tools.",
    passes: (m) => nonEmpty(m.stack),
  },
];
