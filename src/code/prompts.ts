import type { CodeFile } from "../proof/orchestration";
import type { ChatMessage } from "../providers/types";
import { renderFiles } from "./files";

/** The coder's and the critic's prompts: plain instructions a real model follows. */

const coderSystem = (language: string) =>
  `You are an expert ${language} programmer. Write complete, working code for the task. Put every file in its own fenced code block and give its relative path in the fence's info string, e.g. \`\`\`${language} path=src/main.ext. No placeholders. Never execute anything.`;

export function coderPrompt(task: string, language: string, repair?: { files: readonly CodeFile[]; issues: readonly string[] }): ChatMessage[] {
  let user = `Task:\n${task}`;
  if (repair) {
    user += `\n\nYour previous files:\n${renderFiles(repair.files)}\n\nReviewer issues to fix:\n${repair.issues.map((i) => `- ${i}`).join("\n")}\n\nReturn every file again, complete, with the issues fixed.`;
  }
  return [
    { role: "system", content: coderSystem(language) },
    { role: "user", content: user },
  ];
}

export function reviewerPrompt(task: string, language: string, files: readonly CodeFile[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: `You are a meticulous ${language} code reviewer. Check the files against the task: correctness, unfinished parts, unhandled edge cases, security. Do not run the code. Reply with JSON only: {"passed": true or false, "score": a number from 0 to 1, "issues": ["one string per problem, with file and line"]}.`,
    },
    { role: "user", content: `Task:\n${task}\n\nFiles:\n${renderFiles(files)}` },
  ];
}
