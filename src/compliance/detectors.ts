import {
  aadhaarValid,
  abaRoutingValid,
  cardBrand,
  ibanValid,
  luhnValid,
  ninoValid,
  shannonEntropy,
  sinValid,
  spanishIdValid,
  ssnValid,
} from "./checksums";
import type { DataClass } from "./matrix";

/**
 * The classifier's detectors, as data: a class, a kind, a pattern and an acceptance check.
 *
 * Every pattern is linear in the length of the text: each quantifier has an upper bound, and each
 * pattern starts with a look-behind that fails in O(1) inside a run of the same token, so a match
 * attempt costs a bounded amount of work and a scan is O(n) (test/compliance/classifier.node.test.ts
 * times the worst cases). Context checks read a fixed window around the match for the same reason.
 */
export interface Detector {
  cls: DataClass;
  kind: string;
  pattern: RegExp;
  /** Checksum, structure or context check; a match that fails it is not reported. */
  accept?: (match: RegExpExecArray, text: string) => boolean;
}

const digits = (s: string) => s.replace(/\D/g, "");

/** True when `keyword` occurs in the `before` characters preceding the match (or `after` following it). */
function near(text: string, match: RegExpExecArray, keyword: RegExp, before: number, after = 0): boolean {
  const start = Math.max(0, match.index - before);
  const end = Math.min(text.length, match.index + match[0].length + after);
  return keyword.test(text.slice(start, match.index)) || (after > 0 && keyword.test(text.slice(match.index + match[0].length, end)));
}

/** True when the position sits inside a URL token ("scheme://...") that starts at most 200 characters back. */
function inUrl(text: string, index: number): boolean {
  const window = text.slice(Math.max(0, index - 200), index);
  const tokenStart = Math.max(window.lastIndexOf(" "), window.lastIndexOf("\n"), window.lastIndexOf("\t"));
  return window.slice(tokenStart + 1).includes("://");
}

/** Not one group of a longer grouped number: "9555 9797 1141" inside a card number is not an Aadhaar. */
function isolated(text: string, match: RegExpExecArray): boolean {
  const before = text.slice(Math.max(0, match.index - 2), match.index);
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + 2);
  return !/\d[ -]?$/.test(before) && !/^[ -]?\d/.test(after);
}

/** A number glued to a decimal point or a version prefix is a measurement or a version, not an id. */
function standalone(text: string, match: RegExpExecArray): boolean {
  const before = text.slice(Math.max(0, match.index - 2), match.index);
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + 2);
  return !/[.\d]$/.test(before) && !/^[.,]\d/.test(after) && !/v$/i.test(before);
}

// ---- PII ----

function ipv4Public(ip: string): boolean {
  const o = ip.split(".").map(Number);
  if (o.some((x) => x > 255)) return false;
  const [a, b, c] = o as [number, number, number, number];
  if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
  if (a === 169 && b === 254) return false;
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false;
  // RFC 5737 documentation ranges: example addresses, not anyone's.
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return false;
  return true;
}

function ipv6Valid(candidate: string): boolean {
  const s = candidate.toLowerCase();
  const halves = s.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === "" ? [] : h.split(":")));
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return false;
  if (halves.length === 1 ? groups.length !== 8 : groups.length > 7) return false;
  // Times (12:30:45) and MAC addresses (00:1a:2b:...) are short groups without "::".
  if (halves.length === 1 && groups.every((g) => g.length <= 2)) return false;
  // "a::b" is C++ or Rust, not an address: a compressed form needs two groups and a full-width one.
  if (halves.length === 2 && (groups.length < 2 || !groups.some((g) => g.length >= 3))) return false;
  const first = parseInt(groups[0] ?? "0", 16);
  // Loopback, link-local (fe80::/10), unique-local (fc00::/7), documentation (2001:db8::/32).
  if ((first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00) return false;
  if (s.startsWith("2001:db8:") || s === "::1") return false;
  return true;
}

function phoneInternationalValid(raw: string): boolean {
  const d = digits(raw);
  if (d.length < 8 || d.length > 15 || /^(\d)\1+$/.test(d)) return false;
  // A decimal tail ("+12.50") or a bare run with no separators after the country code is a number.
  if (/\.\d{1,2}$/.test(raw) && !/[ -]/.test(raw)) return false;
  return /[ ().-]/.test(raw.slice(1)) || d.length >= 10;
}

const NANP = /^(?:\+?1[ .-]?)?\(?([2-9]\d{2})\)?[ .-]?([2-9]\d{2})[ .-]?(\d{4})$/;

function phoneNationalValid(raw: string): boolean {
  const d = digits(raw);
  if (NANP.test(raw.trim())) {
    const m = NANP.exec(raw.trim())!;
    // N11 area codes (411, 911) are service numbers.
    return !/^[2-9]11$/.test(m[1]!);
  }
  // UK (0 + 9 or 10 digits) and France (0 + 9 digits in pairs).
  if (/^0\d{2,4}[ ]\d{3,4}[ ]?\d{3,4}$/.test(raw) && (d.length === 10 || d.length === 11)) return /^0[1237]/.test(d);
  if (/^0[1-9](?:[ .]\d{2}){4}$/.test(raw)) return true;
  return false;
}

const STREET_SUFFIX =
  "(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Terrace|Parkway|Pkwy|Square|Sq|Highway|Hwy|Way|Close|Crescent)";

// ---- PHI ----

export const MEDICAL_TERMS =
  /\b(?:diagnos(?:ed|is|es)|prescri(?:bed|ption)|dx|rx|chemotherapy|metformin|insulin|lisinopril|atorvastatin|sertraline|amoxicillin|oncolog\w{0,6}|carcinoma|tumou?r|diabetes|hypertension|hiv|depression|schizophrenia|pregnan\w{0,4}|dosage|\d{1,4} ?mg\b)/i;

// ---- SECRETS ----

function jwtValid(token: string): boolean {
  try {
    const header = token.split(".")[0]!;
    const json = atob(header.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((header.length + 3) % 4));
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null && "alg" in parsed;
  } catch {
    return false;
  }
}

const SECRET_NAME = /(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[-_]?key|apikey|access[-_]?key|private[-_]?key|credential|auth(?:orization)?[-_]?key|client[-_]?secret|signing[-_]?key)/i;
/** Names that contain a secret-like word but hold counts, limits or settings. */
const NOT_SECRET_NAME = /(?:max|min|count|limit|length|len|size|expir|ttl|type|url|uri|endpoint|header|prefix|name|file|path|id_?$|_ids?$|usage|tokens?_(?:used|in|out)|per_)/i;

function secretValueLooksReal(value: string, text: string, end: number): boolean {
  if (value.length < 8) return false;
  if (text[end] === "(") return false; // a function call: password = getPassword()
  if (/^[<{$%]|\$\{|\{\{|^\*+$|^x+$/i.test(value)) return false; // templates and masks
  if (/^(?:process|os|env|config|settings|self|this|request|req|ctx|args|params|options|secrets)\b[.[]/i.test(value)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return false; // dotted identifier
  if (/:\/\//.test(value) && !/:\/\/[^/\s:@]{1,64}:[^/\s@]{1,64}@/.test(value)) return false; // a URL without credentials
  if (/^(?:true|false|null|none|undefined|required|optional|string|changeme|example|placeholder|redacted|your[-_a-z]*)$/i.test(value)) return false;
  if (/^(?:your|my|example|sample|dummy|test|fake)[-_]/i.test(value)) return false;
  const hasLetter = /[A-Za-z]/.test(value);
  const hasDigitOrSymbol = /[\d!@#%^&*+=?~_-]/.test(value);
  return hasLetter && hasDigitOrSymbol && shannonEntropy(value) >= 3;
}

/**
 * Order matters only for readability; every detector runs. Kinds are stable strings (the API
 * returns them) and docs/compliance.md lists them.
 */
export const DETECTORS: readonly Detector[] = [
  // ---- PII ----
  {
    cls: "PII",
    kind: "email",
    pattern: /(?<![A-Za-z0-9._%+/-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![A-Za-z0-9-])/g,
    // user@host after "scheme://" or "user:" is a URL's userinfo, not a mailbox (mailto: is).
    accept: (m, text) =>
      (text[m.index - 1] !== ":" || /mailto:$/i.test(text.slice(Math.max(0, m.index - 7), m.index))) &&
      !inUrl(text, m.index) &&
      !/^(?:user|name|email|someone|you|me|noreply|no-reply)@example\.(?:com|org|net)$/i.test(m[0]) && !/@(?:example|test|localhost)\./i.test(m[0]),
  },
  {
    cls: "PII",
    kind: "phone_international",
    pattern: /(?<![\w+])\+[1-9][0-9 ().-]{6,20}[0-9](?![\w])/g,
    accept: (m, text) => phoneInternationalValid(m[0]) && standalone(text, m),
  },
  {
    cls: "PII",
    kind: "phone_national",
    pattern: /(?<![\w+.-])(?:\(\d{3}\) ?\d{3}[ .-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4}|0\d{2,4} \d{3,4} ?\d{3,4}|0[1-9](?:[ .]\d{2}){4})(?![\w.-]?\d)/g,
    accept: (m, text) => phoneNationalValid(m[0]) && standalone(text, m) && isolated(text, m),
  },
  {
    cls: "PII",
    kind: "us_ssn",
    pattern: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g,
    accept: (m) => ssnValid(m[0]),
  },
  {
    cls: "PII",
    kind: "us_ssn",
    pattern: /(?<![\w-])\d{3} ?\d{2} ?\d{4}(?![\w-])/g,
    accept: (m, text) => ssnValid(m[0]) && isolated(text, m) && near(text, m, /\b(?:ssn|social security(?: number| no)?)\b/i, 40),
  },
  {
    cls: "PII",
    kind: "uk_nino",
    pattern: /(?<![A-Za-z0-9])[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9])/g,
    accept: (m) => ninoValid(m[0]),
  },
  {
    cls: "PII",
    kind: "es_dni",
    pattern: /(?<![A-Za-z0-9])[XYZ]?\d{7,8}-?[A-Z](?![A-Za-z0-9])/g,
    accept: (m) => spanishIdValid(m[0]),
  },
  {
    cls: "PII",
    kind: "in_aadhaar",
    pattern: /(?<![\w-])[2-9]\d{3} \d{4} \d{4}(?![\w-])/g,
    accept: (m, text) => aadhaarValid(m[0]) && isolated(text, m),
  },
  {
    cls: "PII",
    kind: "ca_sin",
    pattern: /(?<![\w-])\d{3}[ -]?\d{3}[ -]?\d{3}(?![\w-])/g,
    accept: (m, text) => sinValid(m[0]) && isolated(text, m) && near(text, m, /\b(?:SIN|social insurance(?: number| no)?)\b/i, 40),
  },
  {
    cls: "PII",
    kind: "date_of_birth",
    pattern: /(?<![\w/.-])(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2})(?![\w/-]|\.\d)/g,
    accept: (m, text) => near(text, m, /\b(?:DOB|D\.O\.B\.?|date of birth|born(?: on)?|birth ?date)\b/i, 30),
  },
  {
    cls: "PII",
    kind: "ip_address",
    pattern: /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)/g,
    accept: (m, text) => ipv4Public(m[0]) && !/(?:\b(?:version|ver|release|build)\s?|\bv)$/i.test(text.slice(Math.max(0, m.index - 9), m.index)),
  },
  {
    cls: "PII",
    kind: "ip_address",
    pattern: /(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,7}:?(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,6})?(?![\w:])/g,
    accept: (m) => ipv6Valid(m[0]),
  },
  {
    cls: "PII",
    kind: "street_address",
    pattern: new RegExp(`(?<![\\w])\\d{1,5}[A-Z]? (?:[A-Z][a-z]{1,20} ){1,4}${STREET_SUFFIX}\\b\\.?`, "g"),
    // Only where a postal code follows closely: "12 Main Street" alone is too often a sentence.
    accept: (m, text) =>
      /^[^\n]{0,60}?(?:\b\d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b|\b[A-Z]\d[A-Z] ?\d[A-Z]\d\b|\b(?:NSW|VIC|QLD|WA|SA|TAS|ACT|NT) \d{4}\b)/.test(
        text.slice(m.index + m[0].length, m.index + m[0].length + 80),
      ),
  },

  // ---- FINANCIAL ----
  {
    cls: "FINANCIAL",
    kind: "payment_card",
    pattern: /(?<![\w.-])\d{4}(?:[ -]?\d{2,7}){2,4}(?![\w]|[.-]\d)/g,
    accept: (m, text) => {
      const raw = m[0];
      const d = digits(raw);
      if (d.length < 13 || d.length > 19 || /^(\d)\1+$/.test(d)) return false;
      // One separator style throughout (or none): "4111 1111-1111 1111" is not how cards are written.
      if (/ /.test(raw) && /-/.test(raw)) return false;
      return cardBrand(d) !== null && luhnValid(d) && standalone(text, m);
    },
  },
  {
    cls: "FINANCIAL",
    kind: "iban",
    pattern: /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g,
    accept: (m) => ibanValid(m[0]),
  },
  {
    cls: "FINANCIAL",
    kind: "swift_bic",
    pattern: /(?<![A-Za-z0-9])[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![A-Za-z0-9])/g,
    accept: (m, text) => near(text, m, /\b(?:SWIFT|BIC|swift code|bank identifier)\b/i, 40),
  },
  {
    cls: "FINANCIAL",
    kind: "aba_routing_number",
    pattern: /(?<![\w-])\d{9}(?![\w-])/g,
    accept: (m, text) => abaRoutingValid(m[0]) && near(text, m, /\b(?:routing|ABA|RTN|transit number)\b/i, 40),
  },
  {
    cls: "FINANCIAL",
    kind: "bank_account_number",
    pattern: /(?<![\w-])\d{6,17}(?![\w-])/g,
    accept: (m, text) => near(text, m, /\b(?:account (?:number|no\.?|#)|acct\.? ?(?:no\.?|#)?|bank account)\s?:?\s?#?\s?$/i, 30),
  },
  {
    cls: "FINANCIAL",
    kind: "uk_sort_code",
    pattern: /(?<![\w-])\d{2}-\d{2}-\d{2}(?![\w-])/g,
    accept: (m, text) => near(text, m, /\bsort ?code\b/i, 25),
  },

  // ---- PHI ----
  {
    cls: "PHI",
    kind: "medical_record_number",
    pattern: /\b(?:MRN|medical record (?:number|no\.?|#)|patient (?:id|number|no\.?))\s{0,3}[:#]?\s{0,3}[A-Z]{0,3}\d{5,12}\b/gi,
  },
  {
    cls: "PHI",
    kind: "icd10_code",
    pattern: /(?<![A-Za-z0-9.])[A-TV-Z]\d[0-9AB](?:\.[0-9A-TV-Z]{1,4})?(?![A-Za-z0-9]|\.\d)/g,
    accept: (m, text) => near(text, m, /\b(?:ICD(?:-?10)?(?:-CM)?|diagnos(?:is|tic)|dx)\b/i, 60),
  },

  // ---- SECRETS ----
  { cls: "SECRETS", kind: "openai_api_key", pattern: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?(?!ant-)[A-Za-z0-9_-]{40,250}(?![\w-])/g, accept: (m) => /\d/.test(m[0]) && /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) },
  { cls: "SECRETS", kind: "anthropic_api_key", pattern: /(?<![\w-])sk-ant-[a-z0-9]{2,12}-[A-Za-z0-9_-]{32,250}(?![\w-])/g },
  { cls: "SECRETS", kind: "aws_access_key_id", pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { cls: "SECRETS", kind: "github_token", pattern: /(?<![\w])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,255})(?![\w])/g },
  { cls: "SECRETS", kind: "slack_token", pattern: /(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,250}(?![\w-])/g, accept: (m) => /\d/.test(m[0]) },
  { cls: "SECRETS", kind: "slack_webhook", pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{16,32}/g },
  { cls: "SECRETS", kind: "stripe_secret_key", pattern: /(?<![\w])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}(?![\w])/g },
  { cls: "SECRETS", kind: "google_api_key", pattern: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { cls: "SECRETS", kind: "private_key", pattern: /-----BEGIN (?:[A-Z0-9]{1,20} ){0,2}PRIVATE KEY(?: BLOCK)?-----/g },
  {
    cls: "SECRETS",
    kind: "jwt",
    pattern: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{16,1024}(?![\w-])/g,
    accept: (m) => jwtValid(m[0]),
  },
  { cls: "SECRETS", kind: "svc_api_key", pattern: /(?<![\w])svc_sk_[0-9A-Za-z]{32,128}(?![\w])/g },
  {
    cls: "SECRETS",
    kind: "url_credentials",
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^/\s:@]{1,64}:[^/\s@]{3,128}@[A-Za-z0-9.-]{1,253}/g,
    accept: (m) => !/:\/\/[^:]{1,64}:(?:password|pass|\*+|x+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_]+)@/i.test(m[0]),
  },
  {
    cls: "SECRETS",
    kind: "password_in_prose",
    pattern: /\b(?:password|passwd|passcode|passphrase)\s{1,3}(?:is|was|:)\s{1,3}["'`]?([^\s"'`]{6,64})/gi,
    accept: (m) => /[A-Za-z]/.test(m[1]!) && /[\d!@#$%^&*+=?~_-]/.test(m[1]!.replace(/[.,;!?]$/, "")),
  },
  {
    cls: "SECRETS",
    kind: "high_entropy_assignment",
    pattern: /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,60})["']?\s{0,3}(?::=|=>|[:=])\s{0,3}["'`]?([^\s"'`,;(){}[\]<>]{8,200})/g,
    accept: (m, text) => {
      const name = m[1]!;
      const value = m[2]!;
      if (!SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name)) return false;
      return secretValueLooksReal(value, text, m.index + m[0].length);
    },
  },
];
