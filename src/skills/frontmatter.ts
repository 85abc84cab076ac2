import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { MODELS, type Capability } from "../catalog/models";

/**
 * One skill file: YAML front matter between `---` lines, then the markdown body that becomes the
 * system prompt (the format of cloudflare/agents' skills/frontmatter.ts). Pure, so the Node tests
 * check every file of the library without a runtime.
 */

export interface SkillDefinition {
  id: string;
  name: string;
  description: string;
  /**
   * Catalog capabilities a model needs to do this skill's work (a code review needs `code`). Routed
   * invocations choose among models that have them (docs/skills.md, "Capabilities"); empty: any model.
   */
  capabilities: readonly Capability[];
  /** The markdown body after the front matter: the system prompt of an invocation. */
  raw: string;
}

/** The capabilities the catalog's models declare, so a skill cannot ask for one no model has. */
const CATALOG_CAPABILITIES = [...new Set(MODELS.flatMap((m) => m.capabilities))] as [Capability, ...Capability[]];

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** The shortest body that can carry a method, a checklist and an output format. */
export const MIN_BODY_CHARS = 800;

// Strict: a misspelt key is an error, not a silently ignored field.
const frontMatterSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { message: "must be lowercase words joined by hyphens" }).max(64),
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().min(20).max(300),
  capabilities: z.array(z.enum(CATALOG_CAPABILITIES)).min(1).optional(),
});

export class SkillFileError extends Error {}

/** Parses one skill file; `file` names it in error messages. Throws SkillFileError on any defect. */
export function parseSkillFile(file: string, text: string): SkillDefinition {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new SkillFileError(`${file}: no front matter (the file must start with a --- line and close it with another)`);
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (err) {
    throw new SkillFileError(`${file}: front matter is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(front matter)"}: ${i.message}`);
    throw new SkillFileError(`${file}: ${issues.join("; ")}`);
  }
  const stem = file.replace(/^.*\//, "").replace(/\.md$/, "");
  if (parsed.data.id !== stem) throw new SkillFileError(`${file}: id ${JSON.stringify(parsed.data.id)} must equal the file name ${JSON.stringify(stem)}`);
  const raw = match[2]!.trim();
  if (raw.length < MIN_BODY_CHARS) throw new SkillFileError(`${file}: body has ${raw.length} characters; a skill needs at least ${MIN_BODY_CHARS}`);
  const { capabilities = [], ...fields } = parsed.data;
  return { ...fields, capabilities: [...new Set(capabilities)], raw };
}
