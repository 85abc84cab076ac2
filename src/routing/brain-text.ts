import { parseBrainConfig } from "./brain-config";
import type { BrainConfig } from "./types";

/**
 * The brain config as text (the BRAIN.md form that sharing accepts as `brain_md`): the subset of
 * YAML a routing config needs, and nothing more (docs/routing.md, "The text form").
 * - `key: value` mappings, nested by indentation (spaces only);
 * - lists of `- item`, where an item may itself be a mapping (`- when: ...` then its other keys);
 * - scalars: numbers, true/false, null or ~, 'single' and "double" quoted strings, plain strings;
 * - flow lists and maps on one line: `[openai, xai]`, `{signal: code, contains: [sql, query]}`;
 * - `#` comments. In Markdown, the first ```yaml (or ```yml, or bare ```) fence is the config;
 *   a `---` front-matter block is read the same way.
 * Anchors, tags, multi-line strings and multiple documents are not part of the format.
 */

interface Line {
  indent: number;
  text: string;
  no: number;
}

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

/** Cuts a `#` comment that starts a line or follows white space, outside quotes. */
function stripComment(line: string): string {
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) return line.slice(0, i);
  }
  return line;
}

/** Index of the `:` that ends a mapping key (followed by a space or the end), outside quotes and brackets. */
function keyColon(text: string): number {
  let quote = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") depth--;
    else if (ch === ":" && depth === 0 && (i + 1 === text.length || text[i + 1] === " ")) return i;
  }
  return -1;
}

const isItem = (text: string) => text === "-" || text.startsWith("- ");

class TextParser {
  readonly errors: string[] = [];
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  private error(line: Line | undefined, message: string) {
    this.errors.push(line ? `line ${line.no}: ${message}` : message);
  }

  document(): unknown {
    if (!this.lines.length) return {};
    const value = this.block(this.lines[0]!.indent);
    for (; this.i < this.lines.length; this.i++) this.error(this.lines[this.i], "unexpected indentation");
    return value;
  }

  private block(indent: number): unknown {
    return isItem(this.lines[this.i]!.text) ? this.sequence(indent) : this.mapping(indent);
  }

  /** The value after `key:` or `-` when nothing follows on the line: a nested block, or null. */
  private nested(parentIndent: number, allowSameIndentList: boolean): unknown {
    const next = this.lines[this.i];
    if (next && next.indent > parentIndent) return this.block(next.indent);
    // YAML allows a list under a key at the key's own indentation.
    if (next && allowSameIndentList && next.indent === parentIndent && isItem(next.text)) return this.sequence(parentIndent);
    return null;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent || (line.indent === indent && isItem(line.text))) break;
      if (line.indent > indent) {
        this.error(line, "unexpected indentation");
        this.i++;
        continue;
      }
      const colon = keyColon(line.text);
      this.i++;
      if (colon <= 0) {
        this.error(line, `expected "key: value", got ${JSON.stringify(line.text)}`);
        continue;
      }
      const key = String(scalar(line.text.slice(0, colon)));
      if (Object.hasOwn(out, key)) this.error(line, `duplicate key "${key}"`);
      const rest = line.text.slice(colon + 1).trim();
      out[key] = rest ? this.scalarOf(line, rest) : this.nested(indent, true);
    }
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent !== indent || !isItem(line.text)) break;
      const rest = line.text.slice(1).trimStart();
      if (!rest) {
        this.i++;
        out.push(this.nested(indent, false));
      } else if (keyColon(rest) > 0 && !/^["'[{]/.test(rest)) {
        // "- key: value": the item is a mapping whose keys line up with this first one.
        const itemIndent = indent + (line.text.length - rest.length);
        this.lines[this.i] = { indent: itemIndent, text: rest, no: line.no };
        out.push(this.mapping(itemIndent));
      } else {
        this.i++;
        out.push(this.scalarOf(line, rest));
      }
    }
    return out;
  }

  private scalarOf(line: Line, text: string): unknown {
    try {
      return scalar(text);
    } catch (e) {
      this.error(line, (e as Error).message);
      return null;
    }
  }
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** One scalar or flow collection. Throws with a plain message on malformed flow syntax or quotes. */
function scalar(text: string): unknown {
  const flow = new FlowReader(text.trim());
  const value = flow.value(false);
  flow.end();
  return value;
}

/** Reads `[a, b]`, `{k: v}`, quoted and plain scalars; nesting allowed. */
class FlowReader {
  private pos = 0;
  constructor(private readonly s: string) {}

  private skip() {
    while (this.s[this.pos] === " ") this.pos++;
  }

  end() {
    this.skip();
    if (this.pos < this.s.length) throw new Error(`unexpected ${JSON.stringify(this.s.slice(this.pos))}`);
  }

  value(inFlow: boolean): unknown {
    this.skip();
    const ch = this.s[this.pos];
    if (ch === "[") return this.list();
    if (ch === "{") return this.map();
    if (ch === '"' || ch === "'") return this.quoted(ch);
    return this.plain(inFlow ? ",]}" : "");
  }

  /** Steps over an opening bracket; true, past the closing one, when the collection is empty. */
  private open(close: string): boolean {
    this.pos++;
    this.skip();
    if (this.s[this.pos] !== close) return false;
    this.pos++;
    return true;
  }

  /** After an entry: true at the closing bracket, false at a comma (another entry follows). */
  private closes(close: string, what: string): boolean {
    this.skip();
    const ch = this.s[this.pos++];
    if (ch === close) return true;
    if (ch !== ",") throw new Error(`a flow ${what} needs "," between entries and "${close}" at its end`);
    return false;
  }

  private list(): unknown[] {
    const out: unknown[] = [];
    if (this.open("]")) return out;
    do out.push(this.value(true));
    while (!this.closes("]", "list"));
    return out;
  }

  private map(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.open("}")) return out;
    do {
      this.skip();
      const key = this.s[this.pos] === '"' || this.s[this.pos] === "'" ? this.quoted(this.s[this.pos]!) : this.plain(":,}");
      this.skip();
      if (this.s[this.pos++] !== ":") throw new Error(`a flow map needs "key: value", near ${JSON.stringify(String(key))}`);
      out[String(key)] = this.value(true);
    } while (!this.closes("}", "map"));
    return out;
  }

  private quoted(q: string): string {
    const start = this.pos;
    this.pos++;
    let out = "";
    while (this.pos < this.s.length) {
      const ch = this.s[this.pos++]!;
      if (q === "'" && ch === "'" && this.s[this.pos] === "'") {
        out += "'";
        this.pos++;
      } else if (ch === q) {
        return q === '"' ? (JSON.parse(this.s.slice(start, this.pos)) as string) : out;
      } else if (q === '"' && ch === "\\") this.pos++;
      else out += ch;
    }
    throw new Error(`unterminated ${q === '"' ? "double" : "single"}-quoted string`);
  }

  private plain(stops: string): unknown {
    const start = this.pos;
    while (this.pos < this.s.length && !stops.includes(this.s[this.pos]!)) this.pos++;
    const raw = this.s.slice(start, this.pos).trim();
    if (raw === "" || raw === "~" || raw === "null") return null;
    if (raw === "true") return true;
    if (raw === "false") return false;
    if (NUMBER.test(raw)) return Number(raw);
    return raw;
  }
}

/** The text form to a plain value (an object for a well-formed config), with line-numbered errors. */
export function parseBrainText(text: string): { value: unknown; errors: string[] } {
  const { source, firstLine } = brainSource(text);
  const lines: Line[] = [];
  const errors: string[] = [];
  source.split(/\r?\n/).forEach((raw, index) => {
    const no = firstLine + index;
    const body = stripComment(raw).trimEnd();
    if (!body.trim()) return;
    const indentation = body.length - body.trimStart().length;
    if (body.slice(0, indentation).includes("\t")) errors.push(`line ${no}: indent with spaces, not tabs`);
    lines.push({ indent: indentation, text: body.trimStart(), no });
  });
  const parser = new TextParser(lines);
  const value = parser.document();
  return { value, errors: [...errors, ...parser.errors] };
}

/** BRAIN.md text to the canonical config: text errors first, then config errors. */
export function parseBrainConfigText(text: string): { config: BrainConfig; valid: boolean; errors: string[] } {
  const { value, errors } = parseBrainText(text);
  const parsed = parseBrainConfig(value);
  const all = [...errors, ...parsed.errors];
  return { config: parsed.config, valid: all.length === 0, errors: all };
}
