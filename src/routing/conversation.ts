import type { ChatMessage } from "../providers/types";

/**
 * Which text the intent is read from (docs/routing.md, "Conversations"): the last user message (the
 * last message of any role if none is from the user). A short last message ("and in Rust?",
 * "shorter please") is a follow-up: the user message before it is read too, at a lower weight, so
 * the follow-up inherits that turn's intent unless its own words say otherwise ("now translate it").
 * An acknowledgement ("thanks!") is no follow-up: it asks nothing, so it inherits nothing.
 */

/** A last user message at most this long is read as a follow-up of the user turn before it. */
export const FOLLOW_UP_MAX_CHARS = 80;
/** The weight of the earlier turn's scores, against 1 for the follow-up's own. */
export const FOLLOW_UP_WEIGHT = 0.7;

/**
 * The words of an acknowledgement ("thanks!", "ok, perfect", "спасибо, помогло"): a short last
 * message made only of these closes the exchange and asks nothing, so it inherits no intent (a
 * "thanks" after a maths answer is not maths). Chinese and Japanese closers are matched as runs of
 * characters ("谢谢", "ありがとうございます").
 */
const CLOSING_WORDS = new Set([
  "thanks", "thank", "you", "thx", "ty", "great", "perfect", "ok", "okay", "cool", "nice", "awesome", "got", "it",
  "that", "works", "worked", "helped", "helps", "much", "so", "very", "a", "lot", "bye", "cheers", "good", "fine",
  "merci", "beaucoup", "parfait", "super", "c", "est", "d", "accord", "danke", "schön", "vielen", "dank", "perfekt",
  "gut", "gracias", "muchas", "perfecto", "genial", "vale", "obrigado", "obrigada", "muito", "valeu", "perfeito",
  "grazie", "mille", "perfetto", "ottimo", "va", "bene", "спасибо", "большое", "отлично", "понял", "понятно",
  "ок", "помогло", "хорошо",
]);
const CLOSING_RUNS = ["谢谢", "谢啦", "好的", "明白了", "太感谢了", "感谢", "ありがとうございます", "ありがとう", "了解です", "了解", "どうも"];

const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xff00 && c <= 0xff65));

/** Whether a short message is only an acknowledgement (CLOSING_WORDS, CLOSING_RUNS), with any punctuation. */
export function isClosing(text: string): boolean {
  const lower = text.toLowerCase();
  let words = 0;
  let i = 0;
  while (i < lower.length) {
    const c = lower.charCodeAt(i);
    if (!isLetter(c)) {
      i++;
      continue;
    }
    if (c >= 0x3040) {
      const run = CLOSING_RUNS.find((r) => lower.startsWith(r, i));
      if (run === undefined) return false;
      i += run.length;
    } else {
      let j = i;
      while (j < lower.length && isLetter(lower.charCodeAt(j)) && lower.charCodeAt(j) < 0x3040) j++;
      if (!CLOSING_WORDS.has(lower.slice(i, j))) return false;
      i = j;
    }
    words++;
  }
  return words > 0;
}

export interface Turns {
  last: string;
  /** The user message before a short last one; undefined otherwise. */
  previous: string | undefined;
  /** The last message is only an acknowledgement ("thanks!"): it inherits nothing and is `simple`. */
  closing: boolean;
}

export function turnsOf(messages: readonly { role: ChatMessage["role"]; content: string }[]): Turns {
  let lastIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === "user") {
      lastIndex = i;
      break;
    }
  }
  const last = lastIndex < 0 ? (messages.length ? messages[messages.length - 1]!.content : "") : messages[lastIndex]!.content;
  if (last.length > FOLLOW_UP_MAX_CHARS) return { last, previous: undefined, closing: false };
  if (isClosing(last)) return { last, previous: undefined, closing: true };
  for (let i = lastIndex - 1; i >= 0; i--) if (messages[i]!.role === "user") return { last, previous: messages[i]!.content, closing: false };
  return { last, previous: undefined, closing: false };
}
