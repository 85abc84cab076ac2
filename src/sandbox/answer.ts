/**
 * The sandbox upstream's answers: deterministic for a given request body (everything is derived
 * from its SHA-256), plausible enough to read in a demo, naming the model and reflecting the prompt
 * (a code block when code is asked for), and honest about tokens: about 4 characters a token,
 * rounded up, and cut to max_tokens with finish reason `length`.
 */
import type { Model } from "../catalog/models";
import { estimateTokens } from "../cost/tokens";
import { sha256Hex } from "../shared/hash";
import { behave } from "./behaviours";
import { plannerAnswer } from "./planner";

export interface SandboxPrompt {
  system: string;
  turns: Array<{ role: "user" | "assistant"; text: string }>;
  /** Null when the request set no limit (Gemini allows that). */
  maxTokens: number | null;
}

export interface SandboxAnswer {
  text: string;
  finishReason: "stop" | "length";
  promptTokens: number;
  completionTokens: number;
  /** Hex SHA-256 of the request body; ids and choices are taken from it. */
  seed: string;
}

const OPENERS = [
  "Here is a concise answer.",
  "Short version first, details after.",
  "Let me work through this step by step.",
  "Good question; here is how I would approach it.",
];
const POINTS = [
  "Start from the simplest case and make sure it works before generalising.",
  "State the assumptions explicitly, because most disagreements hide there.",
  "Prefer the option that is easiest to reverse if it turns out wrong.",
  "Measure before optimising: the slow part is rarely where it seems.",
  "Keep the inputs and outputs small and well defined.",
  "Check the edge cases: empty input, very large input, and invalid input.",
  "Write the result down in a form someone else can verify.",
  "Split the problem so that each part can be tested on its own.",
];

const LANGS: Array<[RegExp, string]> = [
  [/\btype ?script\b|\bts\b/i, "typescript"],
  [/\bjavascript\b|\bnode(\.js)?\b|\bjs\b/i, "javascript"],
  [/\bpython\b|\bpy\b/i, "python"],
  [/\brust\b/i, "rust"],
  [/\bgolang\b|\bin go\b/i, "go"],
  [/\bjava\b/i, "java"],
  [/\bc\+\+|\bcpp\b/i, "cpp"],
  [/\bsql\b|\bquery\b/i, "sql"],
  [/\bbash\b|\bshell\b/i, "bash"],
  [/\bruby\b/i, "ruby"],
];
const WANTS_CODE = /\b(code|function|implement|script|program|class|algorithm|regex|snippet|refactor|debug|method)\b/i;
const STOP = new Set([
  "write", "create", "make", "implement", "give", "show", "please", "function", "code", "script", "program", "that", "which",
  "with", "from", "into", "using", "for", "the", "and", "a", "an", "to", "in", "of", "me", "some", "simple", "small", "method", "class",
]);

function codeLanguage(ask: string): string | null {
  for (const [re, lang] of LANGS) if (re.test(ask)) return lang;
  return WANTS_CODE.test(ask) ? "python" : null;
}

/** Up to three telling words of the prompt, for a function name. */
function nameWords(ask: string): string[] {
  const words = ask.toLowerCase().match(/[a-z]+/g) ?? [];
  const picked = words.filter((w) => w.length > 2 && !STOP.has(w) && !LANGS.some(([re]) => re.test(w))).slice(0, 3);
  return picked.length ? picked : ["solve"];
}

function codeBlock(lang: string, words: string[], topic: string): string {
  const snake = words.join("_");
  const camel = words[0] + words.slice(1).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  const pascal = camel[0]!.toUpperCase() + camel.slice(1);
  const body: Record<string, string> = {
    python: `def ${snake}(data):\n    """${topic}"""\n    if not data:\n        return data\n    result = data\n    return result`,
    typescript: `export function ${camel}<T>(data: T): T {\n  // ${topic}\n  if (data == null) return data;\n  const result = data;\n  return result;\n}`,
    javascript: `export function ${camel}(data) {\n  // ${topic}\n  if (data == null) return data;\n  const result = data;\n  return result;\n}`,
    rust: `pub fn ${snake}(data: &str) -> String {\n    // ${topic}\n    data.to_string()\n}`,
    go: `func ${pascal}(data string) string {\n\t// ${topic}\n\treturn data\n}`,
    java: `public static String ${camel}(String data) {\n    // ${topic}\n    return data;\n}`,
    cpp: `std::string ${camel}(const std::string& data) {\n    // ${topic}\n    return data;\n}`,
    sql: `-- ${topic}\nSELECT *\nFROM ${snake}\nORDER BY 1\nLIMIT 10;`,
    bash: `${snake}() {\n  # ${topic}\n  printf '%s\\n' "$1"\n}`,
    ruby: `def ${snake}(data)\n  # ${topic}\n  data\nend`,
  };
  return `\`\`\`${lang}\n${body[lang] ?? body.python}\n\`\`\``;
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair. */
export function safeSlice(text: string, start: number, end: number): string {
  let e = Math.min(end, text.length);
  if (e < text.length && e > start) {
    const c = text.charCodeAt(e - 1);
    if (c >= 0xd800 && c <= 0xdbff) e--;
  }
  return text.slice(start, e);
}

/** `attempt`: the how-manieth request to this model within one client request (1 for the first). */
export function sandboxAnswer(model: Model, prompt: SandboxPrompt, body: string, attempt = 1): SandboxAnswer {
  const behaviour = behave(model, prompt, body, attempt, sandboxAnswer); if (behaviour) return behaviour; // a job, or a resample: behaviours.ts
  const seed = sha256Hex(body);
  const byte = (i: number) => parseInt(seed.slice(i * 2, i * 2 + 2), 16);
  let lastUser = "";
  let promptText = prompt.system;
  for (const t of prompt.turns) {
    promptText += t.text;
    if (t.role === "user") lastUser = t.text;
  }
  const ask = lastUser.replace(/\s+/g, " ").trim();
  const topic = ask.length > 80 ? `${safeSlice(ask, 0, 77)}...` : ask || "(empty prompt)";

  const parts = [`${model.display_name} (${model.id}, sandbox upstream) on "${topic}":`, OPENERS[byte(0) % OPENERS.length]!];
  const first = byte(1) % POINTS.length;
  const count = 2 + (byte(2) % 2);
  for (let i = 0; i < count; i++) parts.push(`${i + 1}. ${POINTS[(first + i * 3) % POINTS.length]}`);
  const lang = codeLanguage(ask);
  if (lang) {
    parts.push(`A starting point in ${lang}:`, codeBlock(lang, nameWords(ask), topic.replace(/["\\]/g, "'")));
  }
  parts.push(`(Deterministic sandbox answer ${seed.slice(0, 12)}; no real model was called.)`);
  let text = plannerAnswer(prompt, lastUser) ?? parts.join("\n\n");

  let finishReason: SandboxAnswer["finishReason"] = "stop";
  if (prompt.maxTokens !== null && estimateTokens(text) > prompt.maxTokens) {
    text = safeSlice(text, 0, prompt.maxTokens * 4);
    finishReason = "length";
  }
  return { text, finishReason, promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(text), seed };
}

/** Several stream chunks of roughly equal size (about eight for a typical answer). */
export function chunksOf(text: string): string[] {
  const size = Math.max(12, Math.ceil(text.length / 8));
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const piece = safeSlice(text, i, i + size) || text.slice(i, i + 2);
    out.push(piece);
    i += piece.length;
  }
  return out;
}
