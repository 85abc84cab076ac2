/**
 * The language of a code task: forced by the request, else the first language the task names,
 * else Python (the language most tasks without one are written in).
 */
const NAMED: ReadonlyArray<readonly [RegExp, string]> = [
  [/\btype ?script\b|\bts\b|\.tsx?\b/i, "typescript"],
  [/\bjavascript\b|\bnode(\.js)?\b|\bjs\b/i, "javascript"],
  [/\bpython\b|\.py\b/i, "python"],
  [/\brust\b/i, "rust"],
  [/\bgolang\b|\bin go\b|\bgo (function|program|module)\b/i, "go"],
  [/\bkotlin\b/i, "kotlin"],
  [/\bjava\b/i, "java"],
  [/\bc#|\bcsharp\b|\.net\b/i, "csharp"],
  [/\bc\+\+|\bcpp\b/i, "cpp"],
  [/\bswift\b/i, "swift"],
  [/\bruby\b/i, "ruby"],
  [/\bphp\b/i, "php"],
  [/\bsql\b|\bpostgres(ql)?\b|\bsqlite\b/i, "sql"],
  [/\bbash\b|\bshell script\b|\bzsh\b/i, "bash"],
];

export const DEFAULT_LANGUAGE = "python";

export function detectLanguage(task: string): { language: string; detected: boolean } {
  for (const [re, language] of NAMED) if (re.test(task)) return { language, detected: true };
  return { language: DEFAULT_LANGUAGE, detected: false };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  py: "python", ts: "typescript", tsx: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
  rs: "rust", go: "go", java: "java", kt: "kotlin", cs: "csharp", cpp: "cpp", cc: "cpp", hpp: "cpp", h: "c", c: "c",
  swift: "swift", rb: "ruby", php: "php", sql: "sql", sh: "bash", bash: "bash", json: "json", yaml: "yaml", yml: "yaml",
  toml: "toml", md: "markdown", html: "html", css: "css",
};

/** The language of a file: from its extension, else the fence's info string, else the run's language. */
export function fileLanguage(path: string, info: string | null, fallback: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext]!;
  return info?.toLowerCase() || fallback;
}

export const extensionOf = (language: string) => Object.entries(EXTENSIONS).find(([, l]) => l === language)?.[0] ?? "txt";
