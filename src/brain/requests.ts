import { z } from "zod";
import { checkBrainSource, type BrainSource } from "./check";

/**
 * The bodies of `POST /v1/brain/validate` and `POST /v1/brain/share`, and the validate answer.
 * Stored text is bounded so that a share row stays far below D1's 1 MB row limit (docs/brain.md,
 * "Sizes"): 64 KiB of text, 64 KiB of config JSON, a 120-character title.
 */

export const MAX_BRAIN_MD_BYTES = 64 * 1024;
export const MAX_BRAIN_CONFIG_BYTES = 64 * 1024;
export const MAX_TITLE_CHARS = 120;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

const brainMd = z.string().superRefine((text, ctx) => {
  const bytes = utf8Bytes(text);
  if (bytes > MAX_BRAIN_MD_BYTES) ctx.addIssue({ code: "custom", message: `at most ${MAX_BRAIN_MD_BYTES} bytes of UTF-8 (64 KiB); got ${bytes}` });
});

const brainConfig = z.unknown().superRefine((value, ctx) => {
  const bytes = utf8Bytes(JSON.stringify(value) ?? "");
  if (bytes > MAX_BRAIN_CONFIG_BYTES) ctx.addIssue({ code: "custom", message: `at most ${MAX_BRAIN_CONFIG_BYTES} bytes as JSON (64 KiB); got ${bytes}` });
});

/** Counted in characters (code points), as a person counts them; blank means no title. */
const title = z
  .string()
  .trim()
  .refine((t) => [...t].length <= MAX_TITLE_CHARS, { message: `at most ${MAX_TITLE_CHARS} characters` })
  .transform((t) => t || null);

function exactlyOneSource(body: { brain_md?: string; brain_config?: unknown }, ctx: z.RefinementCtx) {
  const given = Number(body.brain_md !== undefined) + Number(body.brain_config !== undefined);
  if (given === 1) return;
  ctx.addIssue({
    code: "custom",
    message: given ? "give brain_md or brain_config, not both" : "give brain_md (the BRAIN.md text) or brain_config (the object form)",
  });
}

const toSource = (b: { brain_md?: string; brain_config?: unknown }): BrainSource =>
  b.brain_md !== undefined ? { brain_md: b.brain_md } : { brain_config: b.brain_config };

export const validateRequest = z
  .strictObject({ brain_md: brainMd.optional(), brain_config: brainConfig.optional() })
  .superRefine(exactlyOneSource)
  .transform(toSource);

export const shareRequest = z
  .strictObject({ brain_md: brainMd.optional(), brain_config: brainConfig.optional(), title: title.nullish() })
  .superRefine(exactlyOneSource)
  .transform((b) => ({ source: toSource(b), title: b.title ?? null }));

/** `POST /v1/brain/validate`: the verdict, the messages and the canonical config; nothing is stored. */
export function validateBrain(source: BrainSource) {
  const { valid, errors, warnings, config } = checkBrainSource(source);
  return { object: "brain.validation" as const, valid, errors, warnings, config };
}
