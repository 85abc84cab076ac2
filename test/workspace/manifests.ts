/** A manifest that passes every readiness check; shared by the pure and the endpoint tests. */
export const FULL = {
  workspace_id: "ws-full",
  project_name: "Parser",
  stack: ["TypeScript", "Cloudflare Workers"],
  protected_paths: [".env*", "*.pem", ".github/workflows/**", "migrations/**"],
  forbidden_commands: ["rm -rf", "git push --force", "git push -f", "DROP TABLE"],
  require_handoffs: true,
  require_risk_gate: true,
};
