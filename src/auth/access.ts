/**
 * SPEC.md section 5, the access table. Protected is the default: every path under /v1 and /v2
 * needs a key unless it is listed here, so a new endpoint cannot be left open by mistake.
 * `/admin/*` has its own token; `/health` is public.
 */
const PUBLIC_ROUTES: ReadonlyArray<readonly [method: string, pattern: string]> = [
  ["GET", "/health"],
  ["GET", "/v1/models"],
  ["GET", "/v1/models/:model_id"],
  ["GET", "/v1/plans"],
  ["POST", "/v1/brain/validate"],
  ["GET", "/v1/proof/pubkey"],
  ["GET", "/v1/proof/:id"],
  ["POST", "/v1/agent/verify"],
  ["GET", "/v1/skills"],
  ["GET", "/v1/skills/:id"],
  ["GET", "/v1/b/:id"],
  ["GET", "/v1/brain/badge"],
  ["GET", "/v1/mcp/manifest"],
];

const toRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/:[a-z_]+/g, "[^/]+")}/?$`);

const EXACT = new Set<string>();
const PATTERNS: Array<[string, RegExp]> = [];
for (const [method, pattern] of PUBLIC_ROUTES) {
  if (pattern.includes(":")) PATTERNS.push([method, toRegExp(pattern)]);
  else EXACT.add(`${method} ${pattern}`);
}

export function requiresKey(method: string, path: string): boolean {
  if (!path.startsWith("/v1/") && !path.startsWith("/v2/")) return false;
  // HEAD is answered like GET.
  const m = method === "HEAD" ? "GET" : method;
  if (EXACT.has(`${m} ${path}`)) return false;
  for (const [pm, re] of PATTERNS) if (pm === m && re.test(path)) return false;
  return true;
}
