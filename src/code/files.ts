import type { CodeFile } from "../proof/orchestration";
import { extensionOf, fileLanguage } from "./language";

/**
 * Files from a model's reply: every fenced code block, with its path found where real models put
 * it (docs/code-mode.md, "Files"):
 *   ```python path=src/app.py   ```python src/app.py   ```src/app.py   ```python title="src/app.py"
 *   a first-line comment: `# file: src/app.py`, `// src/app.ts`, `-- file: q.sql`, `<!-- index.html -->`
 *   the line before the fence: `### src/app.py`, `**src/app.py**`, `File: src/app.py`, `` `src/app.py` ``
 * A path must be relative and stay inside the project: absolute paths, drive letters and `..`
 * segments are rejected (the block keeps its code under a default name). The service never runs code.
 */

const encoder = new TextEncoder();
export const utf8Bytes = (s: string) => encoder.encode(s).length;

const PATHISH = /^[\w@.\-/\\:]+\.[A-Za-z0-9]+$/;

/** A safe relative path, normalised to forward slashes, or null. */
export function safePath(raw: string): string | null {
  let p = raw.trim().replace(/^["'`]|["'`]$/g, "").replace(/\\/g, "/");
  if (!p || /^[A-Za-z]:/.test(p) || p.startsWith("/") || p.startsWith("~")) return null;
  p = p.replace(/^(\.\/)+/, "");
  const parts = p.split("/");
  if (parts.some((s) => s === ".." || s === "") || !PATHISH.test(p) || p.length > 255) return null;
  return p;
}

/** A candidate path from a line of text, safe or not (null when the line names no file). */
function pathIn(line: string): string | null {
  const t = line.trim();
  const m =
    /^(?:#{1,6}\s+|\*\*|__)?(?:file(?:name)?\s*[:=]\s*)?`?([^\s`*]+)`?(?:\*\*|__)?:?\s*$/i.exec(t) ??
    /^(?:#|\/\/|--|;|<!--|\/\*)\s*(?:file(?:name)?\s*[:=]\s*)?([^\s]+?)\s*(?:-->|\*\/)?$/i.exec(t);
  const candidate = m?.[1];
  return candidate && /\.[A-Za-z0-9]+$/.test(candidate) && /[\w]/.test(candidate) ? candidate : null;
}

export interface ParsedFiles {
  files: CodeFile[];
  /** Paths a reply named that were not safe (absolute, drive letter, `..`). */
  rejected: string[];
}

export function parseFiles(reply: string, language: string): ParsedFiles {
  const files = new Map<string, CodeFile>();
  const rejected: string[] = [];
  const fence = /^```([^\n`]*)\n([\s\S]*?)^```[ \t]*$/gm;
  let unnamed = 0;
  let prevEnd = 0;
  for (const m of reply.matchAll(fence)) {
    // The nearest non-empty line above the fence (a heading, a bold name), not inside an earlier block.
    const before = reply.slice(prevEnd, m.index).split("\n").filter((l) => l.trim()).at(-1) ?? "";
    prevEnd = m.index + m[0].length;
    const info = m[1]!.trim();
    let body = m[2]!;
    const [lang = "", ...rest] = info.split(/\s+/);
    let named: string | null = null;
    const attr = /(?:path|file|title|filename)\s*=\s*"?([^"\s]+)"?/i.exec(info)?.[1];
    if (attr) named = attr;
    else if (rest.length && /\.[A-Za-z0-9]+$/.test(rest[0]!)) named = rest[0]!;
    else if (/[./]/.test(lang) && /\.[A-Za-z0-9]+$/.test(lang)) named = lang.replace(/^[a-z]+:/i, "");
    if (!named) {
      const firstLine = body.split("\n", 1)[0]!;
      const fromComment = /^\s*(#|\/\/|--|;|<!--|\/\*)/.test(firstLine) ? pathIn(firstLine) : null;
      if (fromComment) {
        named = fromComment;
        body = body.slice(firstLine.length + 1);
      }
    }
    if (!named && before.trim()) named = pathIn(before);
    const infoLang = named === lang ? null : lang.includes(":") ? lang.split(":")[0]! : lang || null;
    let path = named ? safePath(named) : null;
    if (named && !path) rejected.push(named);
    if (!path) path = unnamed++ === 0 ? `main.${extensionOf(infoLang ?? language)}` : `main_${unnamed}.${extensionOf(infoLang ?? language)}`;
    const content = body.endsWith("\n") ? body : `${body}\n`;
    // A model that writes the same file twice means the later one.
    files.set(path, { path, language: fileLanguage(path, infoLang, language), content, bytes: utf8Bytes(content) });
  }
  return { files: [...files.values()], rejected };
}

/** Files as the critic and a repairing coder read them: each in a fence with its path in the info string. */
export const renderFiles = (files: readonly CodeFile[]) => files.map((f) => `\`\`\`${f.language} path=${f.path}\n${f.content}\`\`\``).join("\n\n");
