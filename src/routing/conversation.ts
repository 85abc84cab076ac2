import type { ChatMessage } from "../providers/types";

/**
 * Which text the intent is read from (docs/routing.md, "Conversations"): the last user message (the
 * last message of any role if none is from the user). A short last message ("and in Rust?",
 * "shorter please") is a follow-up: the user message before it is read too, at a lower weight, so
 * the follow-up inherits that turn's intent unless its own words say otherwise ("now translate it").
 */

/** A last user message at most this long is read as a follow-up of the user turn before it. */
export const FOLLOW_UP_MAX_CHARS = 80;
/** The weight of the earlier turn's scores, against 1 for the follow-up's own. */
export const FOLLOW_UP_WEIGHT = 0.7;

export interface Turns {
  last: string;
  /** The user message before a short last one; undefined otherwise. */
  previous: string | undefined;
}

export function turnsOf(messages: readonly { role: ChatMessage["role"]; content: string }[]): Turns {
  let lastIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      lastIndex = i;
      break;
    }
  }
  if (lastIndex < 0) return { last: messages.length ? messages[messages.length - 1]!.content : "", previous: undefined };
  const last = messages[lastIndex]!.content;
  if (last.length > FOLLOW_UP_MAX_CHARS) return { last, previous: undefined };
  for (let i = lastIndex - 1; i >= 0; i--) if (messages[i]!.role === "user") return { last, previous: messages[i]!.content };
  return { last, previous: undefined };
}
