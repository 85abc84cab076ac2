/**
 * The Durable Object name of a workspace's ledger. Owner ids are free text (the admin endpoint and the
 * CLI take any string) and workspace ids may contain `:` and other separators, so the two are not
 * joined with a separator: the name is the JSON array `[owner_id, workspace_id]`. JSON string
 * encoding is injective and an array of two strings has exactly one spelling, so two different pairs
 * can never name the same object, and the object reads its own identity back from the name.
 */
export interface LedgerIdentity {
  ownerId: string;
  workspaceId: string;
}

export const ledgerName = (ownerId: string, workspaceId: string): string => JSON.stringify([ownerId, workspaceId]);

/** The inverse of `ledgerName`; throws on a name that `ledgerName` did not produce. */
export function parseLedgerName(name: string): LedgerIdentity {
  let parts: unknown;
  try {
    parts = JSON.parse(name);
  } catch {
    parts = null;
  }
  if (!Array.isArray(parts) || parts.length !== 2 || typeof parts[0] !== "string" || typeof parts[1] !== "string" || ledgerName(parts[0], parts[1]) !== name) {
    throw new Error(`not a ledger name: ${name.slice(0, 200)}`);
  }
  return { ownerId: parts[0], workspaceId: parts[1] };
}
