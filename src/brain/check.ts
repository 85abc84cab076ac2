import { checkBrainConfig, type BrainConfigIssue } from "../routing/brain-config";
import type { BrainConfig } from "../routing/types";
import { parseBrainText } from "./text";
import { brainWarnings } from "./warnings";

/**
 * The one reading of a brain config, whatever its form: validate, share and (through routing's
 * `brainConfigSchema`, the same `checkBrainConfig`) chat all see the same config and messages.
 */
export interface BrainCheck {
  /** The canonical form: what is valid, normalised. */
  config: BrainConfig;
  valid: boolean;
  /** `path: what is wrong`, text errors (`line N: ...`) first. */
  errors: string[];
  warnings: string[];
}

/** Either form, as the validate and share bodies carry it. */
export type BrainSource = { brain_md: string } | { brain_config: unknown };

/**
 * A config of a thousand bad entries would give a thousand messages, and shares store them: past
 * this many, one line says how many more. Each message is cut too, since it may quote the input.
 */
export const MAX_MESSAGES = 50;
export const MAX_MESSAGE_CHARS = 300;

function bounded(messages: string[]): string[] {
  const cut = messages.map((m) => (m.length > MAX_MESSAGE_CHARS ? `${m.slice(0, MAX_MESSAGE_CHARS - 1)}…` : m));
  if (cut.length <= MAX_MESSAGES) return cut;
  return [...cut.slice(0, MAX_MESSAGES - 1), `... and ${cut.length - MAX_MESSAGES + 1} more`];
}

const formatIssue = (i: BrainConfigIssue) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message);

function finish(value: unknown, textErrors: string[], textWarnings: string[]): BrainCheck {
  const { config, issues } = checkBrainConfig(value);
  const errors = [...textErrors, ...issues.map(formatIssue)];
  return { config, valid: errors.length === 0, errors: bounded(errors), warnings: bounded([...textWarnings, ...brainWarnings(value, config)]) };
}

/** The object form (`brain_config`). */
export function parseBrainConfig(input: unknown): BrainCheck {
  return finish(input, [], []);
}

/** The text form (`brain_md`): text errors first, then config errors. */
export function parseBrainConfigText(text: string): BrainCheck {
  const { value, errors, warnings } = parseBrainText(text);
  return finish(value, errors, warnings);
}

export function checkBrainSource(source: BrainSource): BrainCheck {
  return "brain_md" in source ? parseBrainConfigText(source.brain_md) : parseBrainConfig(source.brain_config);
}
