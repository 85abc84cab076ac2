/**
 * Check digits and structural rules of the identifiers the classifier reports. A pattern match alone
 * flags every 16-digit order number; these checks are what keep ordinary numbers out.
 */

const digitsOf = (s: string) => s.replace(/\D/g, "");

/** Luhn (ISO/IEC 7812-1): payment cards, Canadian SINs. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Issuer prefixes and lengths of the card brands that matter (ISO/IEC 7812 IIN ranges). */
export function cardBrand(digits: string): string | null {
  const n = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const p6 = Number(digits.slice(0, 6));
  if (digits[0] === "4" && (n === 13 || n === 16 || n === 19)) return "visa";
  if (((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) && n === 16) return "mastercard";
  if ((p2 === 34 || p2 === 37) && n === 15) return "amex";
  if ((p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649) || (p6 >= 622126 && p6 <= 622925)) && n >= 16 && n <= 19) return "discover";
  if (p4 >= 3528 && p4 <= 3589 && n >= 16 && n <= 19) return "jcb";
  if (((p3 >= 300 && p3 <= 305) || p2 === 36 || p2 === 38) && n >= 14 && n <= 19) return "diners";
  if (p2 === 62 && n >= 16 && n <= 19) return "unionpay";
  return null;
}

/** IBAN lengths per country (ISO 13616 registry), for the countries a European customer meets. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AT: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18,
  EE: 20, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GI: 23, GL: 18, GR: 27, HR: 21, HU: 28, IE: 22,
  IL: 23, IS: 26, IT: 27, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31,
  NL: 18, NO: 15, PL: 28, PT: 25, QA: 29, RO: 24, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26,
  UA: 29,
};

/** ISO 13616: right country length and (rearranged, letters as 10..35) mod 97 === 1. */
export function ibanValid(raw: string): boolean {
  const iban = raw.replace(/ /g, "").toUpperCase();
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (!expected || iban.length !== expected || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const d of value) remainder = (remainder * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** ABA routing transit number: Federal Reserve prefix and the 3-7-1 weighted checksum. */
export function abaRoutingValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const prefix = Number(digits.slice(0, 2));
  const prefixOk = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80;
  if (!prefixOk || /^(\d)\1{8}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** US SSN issuance rules: no area 000, 666 or 9xx, no group 00, no serial 0000. */
export function ssnValid(raw: string): boolean {
  const d = digitsOf(raw);
  if (d.length !== 9) return false;
  const area = d.slice(0, 3);
  return area !== "000" && area !== "666" && area[0] !== "9" && d.slice(3, 5) !== "00" && d.slice(5) !== "0000";
}

/** UK National Insurance number prefixes HMRC never allocates. */
const NINO_BAD_PREFIXES = new Set(["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"]);

export function ninoValid(raw: string): boolean {
  const s = raw.replace(/ /g, "");
  return /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(s) && !NINO_BAD_PREFIXES.has(s.slice(0, 2));
}

/** Spanish DNI/NIE control letter: the number mod 23 indexes this alphabet. */
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

export function spanishIdValid(raw: string): boolean {
  const s = raw.replace(/-/g, "").toUpperCase();
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(s);
  if (!m) return false;
  const [, nie, body, letter] = m;
  if (nie && body!.length !== 7) return false;
  if (!nie && body!.length !== 8) return false;
  const number = Number((nie ? String("XYZ".indexOf(nie)) : "") + body);
  return DNI_LETTERS[number % 23] === letter;
}

// Verhoeff tables (dihedral group D5), used by India's Aadhaar.
const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

export function verhoeffValid(digits: string): boolean {
  let c = 0;
  const reversed = [...digits].reverse();
  for (let i = 0; i < reversed.length; i++) c = VERHOEFF_D[c]![VERHOEFF_P[i % 8]![Number(reversed[i])]!]!;
  return c === 0;
}

/** Aadhaar: 12 digits, never starting with 0 or 1, Verhoeff check digit last. */
export function aadhaarValid(raw: string): boolean {
  const d = digitsOf(raw);
  return d.length === 12 && d[0] !== "0" && d[0] !== "1" && verhoeffValid(d);
}

/** Canadian SIN: 9 digits, Luhn, first digit not 0 or 8 (unassigned). */
export function sinValid(raw: string): boolean {
  const d = digitsOf(raw);
  return d.length === 9 && d[0] !== "0" && d[0] !== "8" && luhnValid(d);
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
