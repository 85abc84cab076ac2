import { notFound } from "../shared/errors";
import { parseSkillFile, type SkillDefinition } from "./frontmatter";
import { LIBRARY_FILES } from "./library";

/** Where the skill texts come from: markdown files of this repository, bundled into the Worker. */
export const LIBRARY_SOURCE = "bundled";
const LIBRARY_DIR = "src/skills/library";

export interface Skill extends SkillDefinition {
  /** The repository path of the skill's file, so anyone can read the exact text that ran. */
  source: string;
}

export interface SkillSummary {
  id: string;
  name: string;
  description: string;
}

let library: { list: readonly Skill[]; byId: ReadonlyMap<string, Skill> } | undefined;

/**
 * Parsed once per isolate, on first use rather than at module load, so the chat path's cold start
 * does not pay for 23 YAML parses. A defective file throws here, which the library test catches.
 */
function load() {
  if (!library) {
    const list = Object.entries(LIBRARY_FILES)
      .map(([file, text]) => ({ ...parseSkillFile(file, text), source: `${LIBRARY_DIR}/${file}` }))
      .sort((a, b) => a.id.localeCompare(b.id));
    library = { list, byId: new Map(list.map((s) => [s.id, s])) };
  }
  return library;
}

export function allSkills(): readonly Skill[] {
  return load().list;
}

/** SPEC.md 2.14, the list. */
export function listSkills() {
  const list = allSkills();
  return {
    object: "list" as const,
    count: list.length,
    source: LIBRARY_SOURCE,
    data: list.map(({ id, name, description }): SkillSummary => ({ id, name, description })),
  };
}

/** SPEC.md 2.14, one skill; 404 `skill_not_found` for an unknown id. */
export function getSkill(id: string): Skill {
  const skill = load().byId.get(id);
  if (!skill) throw notFound("skill_not_found", `No skill ${JSON.stringify(id)}; GET /v1/skills lists the ${allSkills().length} skills.`);
  return skill;
}
