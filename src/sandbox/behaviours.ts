/**
 * What the sandbox upstream does when a prompt asks for a job rather than a chat answer, as real
 * models do it, chosen by reading the prompt (never by a flag the caller sets):
 *
 * - asked to write code with file paths: fenced files, the path written the way a given model
 *   writes it (in the info string, in a heading, in a first-line comment); a first draft leaves a
 *   checkable defect (`TODO:` lines), and a repair fixes the defects the reviewer named (a budget
 *   model one per repair, a stronger model all of them);
 * - asked to review code for a JSON verdict: fails any file with a `TODO:` line, naming each one,
 *   and passes clean code; the JSON is sometimes fenced or followed by prose;
 * - asked to judge or grade candidate answers: scores each by how much of the question it covers;
 * - asked to synthesize, combine or debate: builds on the candidate the others agree with most;
 * - asked to split a request into subtasks: its numbered items, questions or clauses as JSON;
 * - asked the same question again within one client request at temperature > 0: a seeded
 *   variation, so that samples agree sometimes and not always.
 *
 * Deterministic given the request body and, for the last, how many requests this client request
 * has already made to the model.
 */
import type { Model } from "../catalog/models";
import { estimateTokens } from "../cost/tokens";
import { sha256Hex } from "../shared/hash";
import { safeSlice, type SandboxAnswer, type SandboxPrompt } from "./answer";

type Answerer = (model: Model, prompt: SandboxPrompt, body: string, attempt?: number) => SandboxAnswer;

const STOP = new Set(["the", "and", "for", "that", "this", "with", "from", "what", "which", "how", "why", "are", "was", "its", "into", "about", "your", "you", "can", "does", "give", "each", "one"]);
const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
const overlap = (a: string, b: string) => {
  const sa = new Set(words(a));
  const sb = new Set(words(b));
  if (!sa.size || !sb.size) return 0;
  let n = 0;
  for (const w of sa) if (sb.has(w)) n++;
  return n / Math.max(sa.size, sb.size);
};

/** The candidate whose words the others share most (the first on a tie). */
function mostAgreed(texts: readonly string[]): number {
  let best = 0;
  let bestSum = -1;
  texts.forEach((t, i) => {
    const sum = texts.reduce((s, u, j) => (j === i ? s : s + overlap(t, u)), 0);
    if (sum > bestSum) [best, bestSum] = [i, sum];
  });
  return best;
}

/** `[1]`, `[2]`, ... blocks after a heading line such as "Candidate answers:". */
function blocks(text: string, heading: RegExp): string[] {
  const at = text.search(heading);
  if (at === -1) return [];
  return text
    .slice(at)
    .split(/^\[\d+\]\s*$/m)
    .slice(1)
    .map((b) => b.trim())
    .filter(Boolean);
}

const section = (text: string, name: string) => new RegExp(`${name}:\\n([\\s\\S]*?)(?:\\n\\n[A-Z][\\w ]+:\\n|$)`).exec(text)?.[1]?.trim() ?? "";

const providerStyle = (model: Model) => parseInt(sha256Hex(model.provider).slice(0, 2), 16) % 3;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** A JSON reply as different models write one: bare, fenced, or with a sentence after it. */
function jsonReply(model: Model, value: unknown, afterword: string): string {
  const json = JSON.stringify(value);
  const style = providerStyle(model);
  if (style === 0) return json;
  if (style === 1) return `\`\`\`json\n${json}\n\`\`\``;
  return `${json}\n\n${afterword}`;
}

// ---- judging, aggregating, splitting, debating ----

function judge(model: Model, user: string): string {
  const question = section(user, "Question");
  const candidates = blocks(user, /^Candidate answers:/m);
  const want = new Set(words(question));
  const scores = candidates.map((c) => {
    const have = new Set(words(c));
    let hit = 0;
    for (const w of want) if (have.has(w)) hit++;
    return round2(0.35 + 0.6 * (want.size ? hit / want.size : 1));
  });
  const best = scores.reduce((b, s, i) => (s > scores[b]! ? i : b), 0);
  return jsonReply(model, { scores, best: best + 1 }, "The best candidate addresses more of the question.");
}

function aggregate(user: string): string {
  const candidates = blocks(user, /^Candidate answers:/m);
  if (!candidates.length) return "There were no candidate answers to synthesize.";
  const pick = mostAgreed(candidates);
  return `Synthesis of ${candidates.length} candidate answers, built on [${pick + 1}], the one the others agree with most:\n\n${candidates[pick]}`;
}

function combine(user: string): string {
  const parts = blocks(user, /^Subtask answers:/m).map((p) => p.replace(/^Subtask: .*\n?/, "").trim());
  return `Combined answer in ${parts.length} parts:\n\n${parts.map((p, i) => `Part ${i + 1}.\n${p}`).join("\n\n")}`;
}

/** Numbered or bulleted items, else questions, else clauses joined by ';' or 'and'; at most four. */
export function splitRequest(text: string): string[] {
  const items = text.split("\n").flatMap((l) => /^\s*(?:\d+[.)]|[-*•])\s+(.+)$/.exec(l)?.[1]?.trim() ?? []);
  if (items.length >= 2) return items.slice(0, 4);
  const questions = text.match(/[^.?!\n]+\?/g)?.map((q) => q.trim()) ?? [];
  if (questions.length >= 2) return questions.slice(0, 4);
  const clauses = text.split(/;\s*|\s+and then\s+|\s+and also\s+/i).map((c) => c.trim()).filter((c) => c.split(/\s+/).length >= 3);
  return clauses.length ? clauses.slice(0, 4) : [text.trim()];
}

function debateTurn(user: string): string {
  const own = section(user, "Your previous answer");
  const others = blocks(user, /^Other answers:/m);
  const all = [own, ...others];
  const pick = mostAgreed(all);
  const [ownHead = "", ...ownRest] = own.split("\n");
  const body = (all[pick] ?? "").split("\n").slice(1).join("\n").trim() || ownRest.join("\n").trim();
  const critique = others.map((o, i) => `[${i + 1}] ${overlap(own, o) >= 0.5 ? "agrees with me in substance" : "misses points mine covers"}.`).join(" ");
  return `Critique: ${critique}\n\nRevised answer:\n${ownHead}\n\n${body}`;
}

// ---- code: writing and reviewing ----

const COMMENT: Record<string, string> = { python: "#", ruby: "#", bash: "#", sql: "--" };
const EXT: Record<string, string> = { python: "py", typescript: "ts", javascript: "js", go: "go", rust: "rs", java: "java", cpp: "cpp", sql: "sql", bash: "sh", ruby: "rb" };
const EMPTY_INPUT = "handle empty input";

/** The defects a first draft leaves: empty input unhandled, and every requirement after the first. */
function firstDefects(task: string): string[] {
  const clauses = task.split(/,\s*and\s+|\s+and\s+|;\s*|,\s+/i).map((c) => c.trim().replace(/[.]$/, "")).filter(Boolean);
  return [EMPTY_INPUT, ...clauses.slice(1, 3).map((c) => `implement: ${c}`)];
}

function codeFile(language: string, task: string, todo: readonly string[], done: readonly string[]): { path: string; content: string } {
  const name = words(task).filter((w) => !/^(write|function|implement|code|python|typescript|javascript|program|returns?)$/.test(w)).slice(0, 3);
  const snake = (name.length ? name : ["solve"]).join("_");
  const camel = snake.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const c = COMMENT[language] ?? "//";
  const ext = EXT[language] ?? "txt";
  const path = language === "typescript" || language === "javascript" ? `src/${camel}.${ext}` : `${snake}.${ext}`;
  const notes = [...done.map((d) => `${c} Done: ${d}`), ...todo.map((t) => `${c} TODO: ${t}`)];
  const guard = done.includes(EMPTY_INPUT);
  if (language === "python") {
    const body = [`def ${snake}(data):`, `    """${task.replace(/"/g, "'")}"""`, ...notes.map((n) => `    ${n}`), ...(guard ? ["    if not data:", "        return data"] : []), "    return data"];
    return { path, content: `${body.join("\n")}\n` };
  }
  const body = [`export function ${camel}(data) {`, `  ${c} ${task}`, ...notes.map((n) => `  ${n}`), ...(guard ? ["  if (data == null || data.length === 0) return data;"] : []), "  return data;", "}"];
  return { path, content: `${body.join("\n")}\n` };
}

/** One file the way this model writes files: path in the info string, a heading, or a first-line comment. */
function presentFile(model: Model, language: string, file: { path: string; content: string }): string {
  const style = providerStyle(model);
  if (style === 0) return `\`\`\`${language} path=${file.path}\n${file.content}\`\`\``;
  if (style === 1) return `### \`${file.path}\`\n\n\`\`\`${language}\n${file.content}\`\`\``;
  return `\`\`\`${language}\n${COMMENT[language] ?? "//"} file: ${file.path}\n${file.content}\`\`\``;
}

function writeCode(model: Model, system: string, user: string): string {
  const language = /expert (\S+) programmer/i.exec(system)?.[1]?.toLowerCase() ?? "python";
  const task = section(user, "Task") || user.trim();
  const previous = section(user, "Your previous files");
  const issues = section(user, "Reviewer issues to fix").toLowerCase();
  let todo = firstDefects(task);
  let done: string[] = [];
  if (previous) {
    todo = [...previous.matchAll(/TODO: (.+)$/gm)].map((m) => m[1]!.trim());
    done = [...previous.matchAll(/Done: (.+)$/gm)].map((m) => m[1]!.trim());
    // A budget model repairs one named defect per attempt; stronger models repair every one.
    const capacity = model.tier === "budget" ? 1 : Infinity;
    const fixed = todo.filter((t) => issues.includes(t.toLowerCase())).slice(0, capacity);
    todo = todo.filter((t) => !fixed.includes(t));
    done = [...done, ...fixed];
  }
  const file = codeFile(language, task, todo, done);
  return `${previous ? "Here is the repaired code." : "Here is the implementation."}\n\n${presentFile(model, language, file)}`;
}

function review(model: Model, user: string): string {
  const files = [...user.matchAll(/```\S*(?: path=(\S+))?\n([\s\S]*?)```/g)];
  const issues: string[] = [];
  for (const [, path = "file", code = ""] of files) {
    code.split("\n").forEach((line, i) => {
      const todo = /TODO: (.+)$/.exec(line);
      if (todo) issues.push(`${path} line ${i + 1}: unfinished, ${todo[1]!.trim()}`);
    });
  }
  if (!files.length) issues.push("no code was given to review");
  const passed = issues.length === 0;
  const score = passed ? 0.9 : round2(Math.max(0.2, 0.6 - 0.1 * (issues.length - 1)));
  return jsonReply(model, { passed, score, issues }, passed ? "The code is complete." : "Fix the issues above and resubmit.");
}

// ---- sampling at temperature > 0 ----

function temperatureOf(body: string): number {
  try {
    const json = JSON.parse(body) as { temperature?: unknown; generationConfig?: { temperature?: unknown } };
    const t = json.temperature ?? json.generationConfig?.temperature;
    return typeof t === "number" ? t : 0;
  } catch {
    return 0;
  }
}

/**
 * The n-th request to the same model within one client request, at temperature > 0: the first is
 * the plain answer; a later one repeats it or, seeded by (body, n), gives the plain answer of a
 * varied body, as a sampling model would. Deterministic for a client request.
 */
function resample(model: Model, prompt: SandboxPrompt, body: string, attempt: number, plain: Answerer): SandboxAnswer | null {
  if (attempt <= 1 || temperatureOf(body) <= 0) return null;
  const draw = parseInt(sha256Hex(`${sha256Hex(body)}#${attempt}`).slice(0, 2), 16);
  return draw < 110 ? null : plain(model, prompt, `${body}\u0000sample ${attempt}`);
}

// ---- dispatch ----

function answerOf(text: string, prompt: SandboxPrompt, promptText: string, body: string): SandboxAnswer {
  let finishReason: SandboxAnswer["finishReason"] = "stop";
  if (prompt.maxTokens !== null && estimateTokens(text) > prompt.maxTokens) {
    text = safeSlice(text, 0, prompt.maxTokens * 4);
    finishReason = "length";
  }
  return { text, finishReason, promptTokens: estimateTokens(promptText), completionTokens: estimateTokens(text), seed: sha256Hex(body) };
}

/** The behaviour the prompt asks for, or null for a plain chat answer (answer.ts). */
export function behave(model: Model, prompt: SandboxPrompt, body: string, attempt: number, plain: Answerer): SandboxAnswer | null {
  const system = prompt.system;
  const user = prompt.turns.filter((t) => t.role === "user").at(-1)?.text ?? "";
  const promptText = system + prompt.turns.map((t) => t.text).join("");
  let text: string | null = null;
  if (/put every file in its own fenced code block/i.test(system)) text = writeCode(model, system, user);
  else if (/code reviewer/i.test(system) && /"passed"/.test(system)) text = review(model, user);
  else if (/score each candidate answer/i.test(system)) text = judge(model, user);
  else if (/synthesize the single best answer/i.test(system)) text = aggregate(user);
  else if (/combine the answers to the subtasks/i.test(system)) text = combine(user);
  else if (/split the user's request into/i.test(system)) text = JSON.stringify({ subtasks: splitRequest(user) });
  else if (/you are in a debate/i.test(system)) text = debateTurn(user);
  if (text !== null) return answerOf(text, prompt, promptText, body);
  return resample(model, prompt, body, attempt, plain);
}
