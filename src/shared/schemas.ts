import { z } from "zod";

/**
 * Request fields shared by several areas. They live here, below the areas, so that no area borrows
 * another's (audit, policy, handoff and workspace all take a workspace id; audit and snapshot page).
 */

/**
 * Workspace ids appear in URL paths (`/v1/workspace/{id}/snapshot`) and in the shell commands of the
 * generated files, so they are restricted to characters that need no quoting in either.
 */
export const workspaceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$/, "1 to 128 characters: letters, digits and . _ : @ + = - (starting with a letter or digit)");

/** SPEC.md section 8: snapshot and audit `limit` is 1 to 200, default 50. */
export const pageLimit = z.coerce.number().int().min(1).max(200).default(50);
