import { isAlias, isNode, LineCounter, parseDocument, visit } from "yaml";

/**
 * The brain config as text (BRAIN.md, sent as `brain_md`): YAML 1.2 with the core schema, read by
 * the `yaml` package. In a Markdown file the first ```yaml fence (else the first bare fence, else a
 * `---` front-matter block) is the config. Anchors, aliases and tags are refused: a config has no use
 * for them, and aliases are how a small text expands into a huge value.
 */

/** The config part of a BRAIN.md: a fenced YAML block, else front matter, else the whole text. */
export function brainSource(text: string): { source: string; firstLine: number } {
  const lines = text.split(/\r?\n/);
  // A ```yaml fence wins over a bare one, so a Markdown file with other snippets still works.
  const yamlFence = lines.findIndex((l) => /^```\s*ya?ml\s*$/i.test(l.trim()));
  const fence = yamlFence >= 0 ? yamlFence : lines.findIndex((l) => l.trim() === "```");
  if (fence >= 0) {
    const end = lines.findIndex((l, i) => i > fence && l.trim() === "```");
    return { source: lines.slice(fence + 1, end < 0 ? undefined : end).join("\n"), firstLine: fence + 2 };
  }
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
    if (end > 0) return { source: lines.slice(1, end).join("\n"), firstLine: 2 };
  }
  return { source: text, firstLine: 1 };
}

/** yaml's wording where it names its own API or leaves out what a config author needs. */
const PLAINER: Record<string, (at: string) => string> = {
  MULTIPLE_DOCS: () => "one document only: a second `---` starts another (front matter is `---` ... `---` at the top)",
  // yaml points at the key's first character; the key runs to its colon.
  DUPLICATE_KEY: (at) => `duplicate key ${JSON.stringify(/^[^:\n]*/.exec(at)![0].trim().slice(0, 80))}`,
};

/** The text form to a plain value (an object for a well-formed config), with line-numbered errors. */
export function parseBrainText(text: string): { value: unknown; errors: string[]; warnings: string[] } {
  const { source, firstLine } = brainSource(text);
  const lines = new LineCounter();
  // logLevel "error": yaml would otherwise print to the console, for example when a key is a list.
  const doc = parseDocument(source, { lineCounter: lines, schema: "core", merge: false, uniqueKeys: true, prettyErrors: false, logLevel: "error" });
  const at = (offset: number | undefined) => `line ${lines.linePos(offset ?? 0).line + firstLine - 1}`;
  const errors = doc.errors.map((e) => {
    const plainer = PLAINER[e.code];
    return `${at(e.pos[0])}: ${plainer ? plainer(source.slice(e.pos[0])) : e.message}`;
  });
  const warnings = doc.warnings.map((w) => `${at(w.pos[0])}: ${w.message}`);
  let refused = false;
  visit(doc, (_key, node) => {
    if (isAlias(node)) {
      errors.push(`${at(node.range?.[0])}: aliases (*name) are not part of the format; write the value out`);
      refused = true;
    } else if (isNode(node) && (node.anchor || node.tag)) {
      errors.push(`${at(node.range?.[0])}: ${node.anchor ? "anchors (&name)" : `tags (${node.tag})`} are not part of the format`);
      refused = true;
    }
  });
  if (refused) return { value: {}, errors, warnings };
  // A document with errors still yields what parsed, so the config errors after it are useful too.
  try {
    const value: unknown = doc.toJS({ maxAliasCount: 0 });
    return { value: value ?? {}, errors, warnings };
  } catch (e) {
    return { value: {}, errors: [...errors, `the text could not be read: ${(e as Error).message}`], warnings };
  }
}
