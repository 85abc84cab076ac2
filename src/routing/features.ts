import { CUES, LANGUAGE_NAMES_ELSEWHERE, LANGUAGES } from "./vocabulary";

/**
 * The scan of a message (docs/routing.md, "What is read"). With no regular expression and no
 * substring allocation, it:
 * - tells the request (the first and last line, when short) from a pasted body (`findRequest`);
 * - hashes each word as it is read (FNV-1a over case-folded characters; each Chinese or Japanese
 *   character is a word of its own, so their pairs are the character bigrams), and writes the
 *   hashed features of the classifier (word, word pair, word prefix) into reused buffers: the
 *   request's words, the request group, the body's words (which weigh on difficulty only);
 * - looks each word of the request up in the cue table of `vocabulary.ts` (phrases word by word)
 *   and adds the cue points per signal;
 * - counts symbols: code fences, braces and `=>`, `number operator number` arithmetic.
 * Cue points, symbol counts and the length then become features too, so the model weighs them.
 * The trainer (`data/router/train.ts`) reads the same buffer, so training and serving never differ.
 */

export type ScoredSignal = keyof typeof CUES;
export const SCORED = Object.keys(CUES) as ScoredSignal[];

/** The classifier's hash space: 2^15 buckets (2^14 until the eighth pass: collisions cost 2 to 4 points of recall on cross-validation). */
export const BUCKET_BITS = 15;
export const BUCKETS = 1 << BUCKET_BITS;
const BUCKET_MASK = BUCKETS - 1;
/** Most features kept for one message (a 3,000-character window yields well under this). */
const MAX_FEATURES = 8192;
/**
 * Words (and cues) are read in a message's first WORD_HEAD_CHARS and last WORD_TAIL_CHARS, where a
 * request is stated; symbols in its first READ_HEAD_CHARS and last READ_TAIL_CHARS. So a pasted
 * document costs no more than that, however long.
 */
export const WORD_HEAD_CHARS = 200;
export const WORD_TAIL_CHARS = 120;
export const READ_HEAD_CHARS = 2000;
export const READ_TAIL_CHARS = 1000;

// ---- hashing: FNV-1a per word, an avalanche mix to chain words ----

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

const nonZero = (h: number) => h || 1;

function hashWord(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

function hashPhrase(phrase: string): number {
  const words = phrase.split(" ");
  let h = nonZero(hashWord(words[0]!));
  for (let i = 1; i < words.length; i++) h = nonZero(mix(h, nonZero(hashWord(words[i]!))));
  return h;
}

// ---- the cue table: key = phrase hash, value = strong mask (bits 0-14) | LANGUAGE_BIT (15) | weak mask (bits 16-29) | PREFIX ----

const TABLE_BITS = 13;
const TABLE_SIZE = 1 << TABLE_BITS;
const TABLE_MASK = TABLE_SIZE - 1;
const EMPTY = 0;
const PREFIX = 1 << 30;
const WEAK_SHIFT = 16;
const tableKeys = new Int32Array(TABLE_SIZE);
const tableValues = new Int32Array(TABLE_SIZE);
const MAX_PHRASE_WORDS = 3;
/**
 * Table bit of a language's name ("Portuguese", "francés", "ins Englische", "日 本 語"): a request
 * that names one gets one feature for it, whichever language (a `scan` flag, below).
 */
const LANGUAGE_BIT = 1 << 15;
let sawLanguage = false;

function slotOf(key: number): number {
  let slot = (key ^ (key >>> TABLE_BITS)) & TABLE_MASK;
  while (tableKeys[slot] !== EMPTY && tableKeys[slot] !== key) slot = (slot + 1) & TABLE_MASK;
  return slot;
}

const lookup = (key: number) => tableValues[slotOf(key)]!;

{
  const phraseOfKey = new Map<number, string>();
  const put = (phrase: string, bits: number) => {
    const key = nonZero(hashPhrase(phrase));
    // Two different entries with one hash would silently merge; the vocabulary is static, so fail at load.
    const seen = phraseOfKey.get(key);
    if (seen !== undefined && seen !== phrase) throw new Error(`cue hash collision: "${seen}" and "${phrase}"`);
    phraseOfKey.set(key, phrase);
    const slot = slotOf(key);
    tableKeys[slot] = key;
    tableValues[slot] = tableValues[slot]! | bits;
  };
  const add = (phrase: string, bit: number) => {
    const words = phrase.split(" ");
    if (words.length > MAX_PHRASE_WORDS) throw new Error(`cue "${phrase}" has more than ${MAX_PHRASE_WORDS} words`);
    for (let n = 1; n < words.length; n++) put(words.slice(0, n).join(" "), PREFIX);
    put(phrase, bit);
  };
  SCORED.forEach((signal, i) => {
    for (const phrase of CUES[signal].strong) add(phrase, 1 << i);
    for (const phrase of CUES[signal].weak) add(phrase, 1 << (i + WEAK_SHIFT));
  });
  for (const name of [...LANGUAGES, ...LANGUAGE_NAMES_ELSEWHERE]) add(name, LANGUAGE_BIT);
  if (phraseOfKey.size > TABLE_SIZE / 4) throw new Error("cue table over a quarter full; raise TABLE_BITS");
}

// ---- the scan's outputs, reused across calls (JavaScript is single-threaded; every scan resets them) ----

/** Cue points per scored signal (a strong cue 2, a weak one 1). */
export const cuePoints = new Int32Array(SCORED.length);
/**
 * Bucket of each feature, in groups the classifier normalizes apart: the request's word features
 * [0, words), the request group [words, request), the body's word features [request, body), then
 * the difficulty heads' own features [body, difficulty), then the symbol, cue and size features
 * [difficulty, total).
 */
export const featureBuckets = new Int32Array(MAX_FEATURES);
/** Where each group of `featureBuckets` ends, and the symbol counts, of the last scan. */
export const scan = { words: 0, request: 0, body: 0, difficulty: 0, total: 0, fence: false, structural: 0, backticks: 0, mathExpressions: 0 };

const SIGNAL_BITS = (1 << SCORED.length) - 1;

/** Adds the points of a table value (and notes a language's name). */
function credit(value: number) {
  if (value & LANGUAGE_BIT) sawLanguage = true;
  if (value & SIGNAL_BITS) for (let i = 0; i < SCORED.length; i++) if (value & (1 << i)) cuePoints[i]! += 2;
  if ((value >>> WEAK_SHIFT) & SIGNAL_BITS) for (let i = 0; i < SCORED.length; i++) if (value & (1 << (i + WEAK_SHIFT))) cuePoints[i]! += 1;
}

/** The walk over cue phrases of up to three words: the hash of the previous word, and of the previous two, when they start a phrase of the table, else 0. */
let cuePrefix1 = 0;
let cuePrefix2 = 0;

/**
 * One word of the cue walk, shared by `readWords` (which credits the cue points, `count`) and
 * `hasCue` (which only asks whether there is a cue): looks up the three-word phrase ending at
 * `key`, the pair, and the word, and moves the walk on. Returns whether any of them is a cue.
 */
function cueStep(key: number, count: boolean): boolean {
  let values = 0;
  if (cuePrefix2) values |= take(lookup(nonZero(mix(cuePrefix2, key))), count);
  const pair = cuePrefix1 ? nonZero(mix(cuePrefix1, key)) : 0;
  const pairValue = pair ? take(lookup(pair), count) : 0;
  const single = take(lookup(key), count);
  cuePrefix2 = pairValue & PREFIX ? pair : 0;
  cuePrefix1 = single & PREFIX ? key : 0;
  return ((values | pairValue | single) & CUE_BITS) !== 0;
}

const take = (value: number, count: boolean) => {
  if (count) credit(value);
  return value;
};

/** Per ASCII code: the lowercased code for letters and digits (they form words), 0 for the rest. */
const FOLD = new Uint8Array(128);
for (let c = 97; c <= 122; c++) FOLD[c] = c;
for (let c = 65; c <= 90; c++) FOLD[c] = c + 32;
for (let c = 48; c <= 57; c++) FOLD[c] = c;

/**
 * Beyond ASCII: 0 for what separates words (no-break space, guillemets, general and CJK
 * punctuation, full-width punctuation), else the character lowercased for Latin-1, Latin
 * Extended-A, Greek and Cyrillic capitals, else the character itself.
 */
function foldBeyondAscii(c: number): number {
  if (c === 0xa0 || c === 0xab || c === 0xbb || c === 0xbf || c === 0xa1 || c === 0xb7) return 0;
  if ((c >= 0x2000 && c <= 0x206f) || (c >= 0x3000 && c <= 0x303f)) return 0;
  if (c >= 0xff00 && c <= 0xff65 && !((c >= 0xff10 && c <= 0xff19) || (c >= 0xff21 && c <= 0xff3a) || (c >= 0xff41 && c <= 0xff5a))) return 0;
  if (c >= 0xc0 && c <= 0xde && c !== 0xd7) return c + 32;
  if (c >= 0x100 && c <= 0x17f) return c | 1;
  if (c >= 0x391 && c <= 0x3a9) return c + 32;
  if (c >= 0x410 && c <= 0x42f) return c + 32;
  if (c >= 0x400 && c <= 0x40f) return c + 80;
  return c;
}

/** Kana and CJK ideographs: scripts written without spaces, read one character at a time. */
const isIdeographic = (c: number) => (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);


// Feature namespaces: salts mixed into a hash so a word, a pair and a prefix never share a bucket by design.
const PAIR_SALT = 0x2545f491;
const PREFIX_SALT = 0x5bd1e995;
const EXTRA_SALT = 0x68e31da4;
/** Words of at least this many characters also yield their first PREFIX_CHARS characters as a feature. */
const PREFIX_MIN_CHARS = 6;
const PREFIX_CHARS = 4;

const bucket = (h: number) => (h ^ (h >>> BUCKET_BITS) ^ (h >>> 28)) & BUCKET_MASK;

/**
 * A feature counts once per message (presence, not frequency), so a pasted document that repeats a
 * phrase does not drown the request: `seenIn[b] === stamp` marks a bucket already written by this scan.
 */
const seenIn = new Int32Array(BUCKETS);
let stamp = 0;

function pushFeature(h: number) {
  const b = bucket(h);
  if (scan.total < MAX_FEATURES && seenIn[b] !== stamp) {
    seenIn[b] = stamp;
    featureBuckets[scan.total++] = b;
  }
}

/** Set by `hashWordAt`: where the word ended, its length in characters, the hash of its first PREFIX_CHARS. */
let wordEnd = 0;
let wordLength = 0;
let wordStem = 0;

/**
 * Hashes the word that starts at text[i] (a character that does not separate words) and ends before
 * `end`: FNV-1a over its case-folded characters, one ideograph being a word of its own (so the pair
 * with the previous one is its bigram). Returns the word's key; sets wordEnd, wordLength, wordStem.
 */
function hashWordAt(text: string, i: number, end: number): number {
  let c = text.charCodeAt(i);
  let folded = c < 128 ? FOLD[c]! : foldBeyondAscii(c);
  let word = FNV_OFFSET;
  let stem = 0;
  let length = 0;
  if (c >= 0x3040 && isIdeographic(c)) {
    word = Math.imul(word ^ folded, FNV_PRIME);
    i++;
  } else {
    do {
      word = Math.imul(word ^ folded, FNV_PRIME);
      if (++length === PREFIX_CHARS) stem = word;
      if (++i === end) break;
      c = text.charCodeAt(i);
      if (c >= 0x3040 && isIdeographic(c)) break;
      folded = c < 128 ? FOLD[c]! : foldBeyondAscii(c);
    } while (folded !== 0);
  }
  wordEnd = i;
  wordLength = length;
  wordStem = stem;
  return nonZero(word);
}

/**
 * Reads text[start, end): word features, and for words of the request region (`findRequest`) also
 * request-group features and cue points. Called for the head and the tail of a message (all of a
 * short one), cut where the request region ends and starts again, after `scanMessage` has reset
 * the outputs.
 */
function readWords(text: string, start: number, end: number, request: boolean) {
  let r = requestCount;
  // Locals for the hot counters, written back once at the end. Body words go to their own buffer.
  let n = request ? scan.total : bodyCount;
  const fb = request ? featureBuckets : bodyBuckets;
  const cap = request ? MAX_FEATURES : MAX_BODY_FEATURES;
  const rb = requestBuckets;
  const seen = seenIn;
  const mark = stamp;
  cuePrefix1 = cuePrefix2 = 0;
  let previous = 0; // hash of the previous word, for word-pair features
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if ((c < 128 ? FOLD[c]! : foldBeyondAscii(c)) !== 0) {
      const key = hashWordAt(text, i, end);
      i = wordEnd;
      const length = wordLength;
      const stem = wordStem;
      // Classifier features: the word, the pair with the previous word, and a long word's prefix.
      if (n < cap - 3) {
        let b = bucket(key);
        if (seen[b] !== mark) {
          seen[b] = mark;
          fb[n++] = b;
        }
        if (previous !== 0) {
          b = bucket(mix(previous, key) ^ PAIR_SALT);
          if (seen[b] !== mark) {
            seen[b] = mark;
            fb[n++] = b;
          }
        }
        if (length >= PREFIX_MIN_CHARS) {
          b = bucket(mix(stem, PREFIX_SALT));
          if (seen[b] !== mark) {
            seen[b] = mark;
            fb[n++] = b;
          }
        }
      }
      previous = key;
      if (request) {
        if (r < MAX_REQUEST_FEATURES) {
          const b = bucket(mix(key, REQUEST_SALT));
          if (seen[b] !== mark) {
            seen[b] = mark;
            rb[r++] = b;
          }
        }
        if (i <= clauseEnd && r < MAX_REQUEST_FEATURES) {
          const b = bucket(mix(key, CLAUSE_SALT));
          if (seen[b] !== mark) {
            seen[b] = mark;
            rb[r++] = b;
          }
        }
        cueStep(key, true);
      }
      continue;
    }
    i++;
  }
  if (request) scan.total = n;
  else bodyCount = n;
  requestCount = r;
}

/**
 * Reads `s` (the read window, or one of its two parts) for symbols only: a code fence, backticks,
 * structural symbols (`{ } ;`, `()` and `=>`) and `number operator number` arithmetic. It runs over
 * the whole read window, while words are read at the head and tail only: the middle of a long
 * message, where a pasted document or code sits, says whether it is code or arithmetic, and its
 * words add nothing the request does not say (measured on the validation split).
 * Each symbol is found with the engine's native `indexOf`, which skips prose many times faster
 * than a loop over characters, and each count stops where the features stop telling counts apart
 * (10 structural symbols, 3 expressions, 2 backticks).
 */
function readSymbols(s: string) {
  if (!scan.fence && s.indexOf("```") >= 0) scan.fence = true;
  if (scan.backticks < BACKTICKS_CAP) scan.backticks += countUpTo(s, "`", BACKTICKS_CAP - scan.backticks);
  for (let k = 0; k < STRUCTURAL.length && scan.structural < STRUCTURAL_CAP; k++) {
    scan.structural += countUpTo(s, STRUCTURAL[k]!, STRUCTURAL_CAP - scan.structural);
  }
  let math = scan.mathExpressions;
  for (let k = 0; k < OPERATORS.length && math < MATH_CAP; k++) {
    const operator = OPERATORS[k]!;
    for (let i = s.indexOf(operator); i >= 0 && math < MATH_CAP; i = s.indexOf(operator, i + 1)) if (isArithmetic(s, i)) math++;
  }
  scan.mathExpressions = math;
}

const STRUCTURAL = ["{", "}", ";", "()", "=>"];
const OPERATORS = ["=", "+", "*", "^", "\u00d7", "\u00f7", "-", "/"];
const STRUCTURAL_CAP = 10;
const MATH_CAP = 3;
const BACKTICKS_CAP = 2;

/** Occurrences of `needle` in `s`, counted up to `cap`. */
function countUpTo(s: string, needle: string, cap: number): number {
  let n = 0;
  for (let i = s.indexOf(needle); i >= 0 && n < cap; i = s.indexOf(needle, i + needle.length)) n++;
  return n;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Whether the operator at `i` stands between two numbers, white space allowed around it ("2 + 2",
 * "3x + 5 = 20"). Dates and phone numbers use "-" and "/" without spaces ("2024-01-02",
 * "555-1234"), so those two count only with white space before them.
 */
function isArithmetic(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  let j = i - 1;
  if ((c === 45 || c === 47) && (j < 0 || s.charCodeAt(j) > 32)) return false;
  while (j >= 0 && s.charCodeAt(j) <= 32) j--;
  if (j < 0 || !isDigit(s.charCodeAt(j))) return false;
  let k = i + 1;
  while (k < s.length && s.charCodeAt(k) <= 32) k++;
  return k < s.length && isDigit(s.charCodeAt(k));
}

/**
 * Where the request is stated: a message's first line and its last line, each when at most
 * REQUEST_LINE_CHARS long (a last line introduced by a colon, "...as JSON:\n<text>", is pasted
 * text, not request); a message without a line break is all request. The rest (a pasted article,
 * e-mail, log or code) is the body: its words are still features, but only the request's words
 * also count in the request group (normalized on its own, so a long pasted text does not dilute
 * "Extract the dates from this:") and as cue points (so a pasted article that says "summary" is
 * not a request for one). On the cross-validated train split this raised summarization and
 * translation precision (docs/routing.md, "What is read").
 * When both lines qualify and only one of them holds a cue of the vocabulary, that one is the
 * request and the other is pasted text (a short order confirmation above "Send that back to me in
 * Italian", an article's short last paragraph under "Summarize this:").
 */
export const REQUEST_LINE_CHARS = 200;
const REQUEST_SALT = 0x27d4eb2f;
const MAX_REQUEST_FEATURES = 256;
const requestBuckets = new Int32Array(MAX_REQUEST_FEATURES);
let requestCount = 0;
const MAX_BODY_FEATURES = 2048;
const bodyBuckets = new Int32Array(MAX_BODY_FEATURES);
let bodyCount = 0;
/** The request region of the last scan: [0, requestHeadEnd) and [requestTailStart, length). */
let requestHeadEnd = 0;
let requestTailStart = 0;

/**
 * The words before a colon on the request's first line ("Condense this to 30 words: <text>",
 * "Summarize this:") also count as clause features in the request group: the instruction keeps its
 * weight next to text pasted on the same line, while nothing after the colon leaves the request
 * (moving it out cost code and maths recall, docs/routing.md).
 */
const CLAUSE_SALT = 0x1b873593;
let clauseEnd = 0;

/**
 * Whether text[start, end) is short enough to be a request line: at most REQUEST_LINE_CHARS wide,
 * a Chinese or Japanese character counting IDEOGRAPH_WIDTH (it says about what three Latin letters
 * say). On the train split every Chinese and Japanese request line is at most 42 characters and
 * every pasted text on a line of its own at least 91, which plain characters counted as request.
 */
const IDEOGRAPH_WIDTH = 3;
function fits(text: string, start: number, end: number): boolean {
  if (end - start > REQUEST_LINE_CHARS) return false;
  let width = 0;
  for (let i = start; i < end; i++) width += isIdeographic(text.charCodeAt(i)) ? IDEOGRAPH_WIDTH : 1;
  return width <= REQUEST_LINE_CHARS;
}

function findRequest(text: string) {
  const length = text.length;
  const first = text.indexOf("\n");
  const lineEnd = Math.min(first < 0 ? length : first, WORD_HEAD_CHARS);
  let colon = text.indexOf(":");
  if (colon < 0 || colon >= lineEnd) colon = text.indexOf("\uff1a");
  clauseEnd = colon > 0 && colon < lineEnd ? colon : 0;
  if (first < 0) {
    requestHeadEnd = length;
    requestTailStart = length;
    quotedBody(text);
    return;
  }
  requestHeadEnd = fits(text, 0, first) ? first + 1 : 0;
  const last = text.lastIndexOf("\n");
  requestTailStart = length;
  if (fits(text, last + 1, length)) {
    let j = last;
    while (j > 0 && text.charCodeAt(j) <= 32) j--;
    const c = text.charCodeAt(j);
    if (c !== 58 && c !== 0xff1a) requestTailStart = last + 1;
  }
  if (requestHeadEnd > 0 && requestTailStart < length) {
    // A request line stands apart from the text it comes with: a blank line between them, or a
    // colon that introduces it. A line run straight into the next one is the start of a pasted
    // thread, list or log ("Dana (9:02): the deploy failed...\nLuis (9:05): ..."), and so is a last
    // line run straight on from the one before it, when the other line stands apart.
    const headApart = blankAfter(text, first) || endsWithColon(text, first);
    const tailApart = blankBefore(text, last);
    if (headApart && !tailApart) {
      requestTailStart = length;
      return;
    }
    if (tailApart && !headApart) {
      requestHeadEnd = 0;
      return;
    }
    const headCues = hasCue(text, 0, Math.min(requestHeadEnd, WORD_HEAD_CHARS));
    const tailCues = hasCue(text, Math.max(requestTailStart, length - WORD_TAIL_CHARS), length);
    if (headCues && !tailCues) requestTailStart = length;
    else if (tailCues && !headCues) requestHeadEnd = 0;
  }
}

/**
 * A text quoted inside a one-line message ("Nota de mi madre: «Llama al centro de salud antes de las
 * 12...». ¿A quién tengo que llamar?", "Classify this review: 'The delivery was late but...'") is
 * pasted text, as it would be on lines of its own: from the first opening quote that starts a word
 * (after a space, a colon or the message's start) to the last closing one, when at least
 * QUOTED_MIN_WIDTH wide (a quoted phrase to translate, "Translate 'good luck' into French", stays
 * request). Issue 15's tenth pass (docs/routing.md).
 */
const QUOTES = ["«", "»", "\u201c", "\u201d", "\u201e", "\u201c", "\"", "\"", "'", "'", "\u300c", "\u300d", "\u300e", "\u300f"];
const QUOTED_MIN_WIDTH = 40;
const QUOTE_TRIES = 4;
function quotedBody(text: string) {
  let open = -1;
  let close = -1;
  for (let q = 0; q < QUOTES.length; q += 2) {
    let i = text.indexOf(QUOTES[q]!);
    for (let t = 0; i >= 0 && t < QUOTE_TRIES && !startsWord(text, i); t++) i = text.indexOf(QUOTES[q]!, i + 1);
    if (i < 0 || !startsWord(text, i) || (open >= 0 && i >= open)) continue;
    const j = text.lastIndexOf(QUOTES[q + 1]!);
    // An ASCII apostrophe closes a quote only where no letter follows it ("it's" does not).
    if (j <= i || (QUOTES[q] === "'" && j + 1 < text.length && (FOLD[text.charCodeAt(j + 1)] ?? 1) !== 0)) continue;
    open = i;
    close = j;
  }
  if (open < 0 || !wide(text, open + 1, close)) return;
  requestHeadEnd = open + 1;
  requestTailStart = close;
}

/** Whether text[i] opens a quote: at the start, or after white space or a colon. */
function startsWord(text: string, i: number): boolean {
  const c = i > 0 ? text.charCodeAt(i - 1) : 32;
  return c <= 32 || c === 58 || c === 0xff1a || c === 0xa0;
}

/** Whether text[start, end) is at least QUOTED_MIN_WIDTH wide, a Chinese or Japanese character counting IDEOGRAPH_WIDTH. */
function wide(text: string, start: number, end: number): boolean {
  if (end - start >= QUOTED_MIN_WIDTH) return true;
  let width = 0;
  for (let i = start; i < end; i++) width += isIdeographic(text.charCodeAt(i)) ? IDEOGRAPH_WIDTH : 1;
  return width >= QUOTED_MIN_WIDTH;
}

const isBlank = (c: number) => c === 32 || c === 9 || c === 13;

/** Whether the line after the line break at `br` is empty. */
function blankAfter(text: string, br: number): boolean {
  let i = br + 1;
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  return i >= text.length || text.charCodeAt(i) === 10;
}

/** Whether the line before the line break at `br` is empty. */
function blankBefore(text: string, br: number): boolean {
  let i = br - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  return i < 0 || text.charCodeAt(i) === 10;
}

/** Whether the line ending at the line break `br` ends with a colon (ASCII or full-width). */
function endsWithColon(text: string, br: number): boolean {
  let i = br - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  const c = i >= 0 ? text.charCodeAt(i) : 0;
  return c === 58 || c === 0xff1a;
}

/** Table bits that credit points to some signal (strong or weak). */
const CUE_BITS = SIGNAL_BITS | (SIGNAL_BITS << WEAK_SHIFT);

/**
 * Whether text[start, end) holds a cue of the vocabulary (any signal, phrases too), its words read
 * as `readWords` reads them (the same `cueStep`, crediting nothing). Only `findRequest` calls it,
 * on two lines of at most 200 characters.
 */
function hasCue(text: string, start: number, end: number): boolean {
  cuePrefix1 = cuePrefix2 = 0;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if ((c < 128 ? FOLD[c]! : foldBeyondAscii(c)) === 0) {
      i++;
      continue;
    }
    const key = hashWordAt(text, i, end);
    i = wordEnd;
    if (cueStep(key, false)) return true;
  }
  return false;
}

/** Reads the words of text[start, end), cut where the request region ends and starts again. */
function readRange(text: string, start: number, end: number) {
  const a = Math.min(end, Math.max(start, requestHeadEnd));
  if (a > start) readWords(text, start, a, true);
  const b = Math.max(a, Math.min(end, requestTailStart));
  if (b > a) readWords(text, a, b, false);
  if (end > b) readWords(text, b, end, true);
}

/** Whether the request region (`findRequest`) holds a question mark, ASCII or full-width. */
function asksQuestion(text: string): boolean {
  return markInRequest(text, "?") || markInRequest(text, "\uff1f");
}

function markInRequest(text: string, mark: string): boolean {
  const first = text.indexOf(mark);
  return first >= 0 && (first < requestHeadEnd || text.lastIndexOf(mark) >= requestTailStart);
}

const extra = (name: number, level: number) => pushFeature(mix(mix(EXTRA_SALT, name), level));

/** A size as a feature level: its power of two (floor of log2, n >= 1), at most 15. */
const powerOfTwo = (n: number) => Math.min(15, 31 - Math.clz32(n));

/**
 * Scans one message: fills `featureBuckets` (word features, the request group, the body's word
 * features, then symbol, cue and size features), `cuePoints` and `scan`. Returns the number of features.
 */
export function scanMessage(text: string): number {
  if (++stamp === 0x7fffffff) {
    seenIn.fill(0);
    stamp = 1;
  }
  cuePoints.fill(0);
  scan.words = 0;
  scan.request = 0;
  scan.body = 0;
  scan.difficulty = 0;
  scan.total = 0;
  requestCount = 0;
  bodyCount = 0;
  scan.fence = false;
  scan.structural = 0;
  scan.backticks = 0;
  scan.mathExpressions = 0;
  sawLanguage = false;
  const length = text.length;
  findRequest(text);
  if (length <= WORD_HEAD_CHARS + WORD_TAIL_CHARS) readRange(text, 0, length);
  else {
    readRange(text, 0, WORD_HEAD_CHARS);
    readRange(text, length - WORD_TAIL_CHARS, length);
  }
  // A longer message's two parts are slices: views of the text, not copies.
  if (length <= READ_HEAD_CHARS + READ_TAIL_CHARS) readSymbols(text);
  else {
    readSymbols(text.slice(0, READ_HEAD_CHARS));
    readSymbols(text.slice(length - READ_TAIL_CHARS));
  }
  scan.words = scan.total;
  for (let r = 0; r < requestCount && scan.total < MAX_FEATURES; r++) featureBuckets[scan.total++] = requestBuckets[r]!;
  scan.request = scan.total;
  for (let b = 0; b < bodyCount && scan.total < MAX_FEATURES; b++) featureBuckets[scan.total++] = bodyBuckets[b]!;
  scan.body = scan.total;
  const bodyChars = requestTailStart - requestHeadEnd;
  const hasBody = bodyChars > 0 ? 1 : 0;
  // For the difficulty heads only (issue 15's tenth pass): each intent's cue by the request's size
  // (its word features, by powers of two) and whether a body is pasted. A linear model cannot form
  // it, and it tells "Write a haiku about X" from a long constrained brief with the same cue.
  const requestSize = powerOfTwo(scan.words + 1);
  for (let s = 0; s < SCORED.length; s++) if (cuePoints[s]! > 0) extra(300 + s, requestSize * 2 + hasBody);
  scan.difficulty = scan.total;
  if (bodyChars > 0) extra(7, powerOfTwo(bodyChars)); // a pasted body, by powers of two
  if (sawLanguage) extra(8, 0); // a language is named in the request
  extra(1, 0); // always present: a per-message bias, so word weights need not carry it
  extra(2, powerOfTwo(text.length + 1)); // length, by powers of two
  if (scan.fence) extra(3, 0);
  if (scan.structural > 0) extra(4, scan.structural >= 10 ? 3 : scan.structural >= 4 ? 2 : 1);
  if (scan.backticks >= 2) extra(5, 0);
  if (scan.mathExpressions > 0) extra(6, scan.mathExpressions >= 3 ? 2 : 1);
  // Interactions the linear model cannot form from its parts (issue 15's ninth pass, docs/routing.md):
  // an intent's cue with or without a pasted body ("summarize" over a text asks for a summary, alone
  // it may be a quick question), and a question in the request, with or without a body and a cue
  // ("Is anyone treated unfairly here?" over a text is reasoning, not extraction).
  let cues = 0;
  for (let s = 0; s < SCORED.length; s++) {
    if (cuePoints[s]! === 0) continue;
    cues++;
    extra(100 + s, Math.min(3, cuePoints[s]!));
    extra(200 + s, hasBody);
  }
  if (asksQuestion(text)) {
    extra(9, hasBody);
    extra(12, hasBody * 2 + (cues > 0 ? 1 : 0));
  }
  return scan.total;
}
