import { DETECTORS, MEDICAL_TERMS } from "./detectors";
import { DATA_CLASSES, type DataClass } from "./matrix";

/**
 * The classifier: pattern matching only (SPEC.md 2.18). It reports which sensitive classes a text
 * contains and, per class, which kinds matched; it never returns the matched values, so a preview
 * response cannot echo the secret it found.
 */
export interface Classification {
  detected_classes: DataClass[];
  classification: Partial<Record<DataClass, string[]>>;
}

interface Hit {
  cls: DataClass;
  kind: string;
  start: number;
  end: number;
}

/** PII kinds that identify a person, for the "health language near a person" rule. */
const PERSON_IDENTIFIERS = new Set([
  "email", "phone_international", "phone_national", "us_ssn", "uk_nino", "es_dni", "in_aadhaar", "ca_sin", "date_of_birth", "street_address",
]);
/** A titled name ("Mrs. Alvarez", "Patient John Doe") identifies a person in clinical text. */
const TITLED_NAME = /\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Patient|Pt)\.? [A-Z][a-z]{1,20}(?: [A-Z][a-z]{1,20})?\b/g;
const PRESCRIPTION = /prescri|rx|mg|dosage|metformin|insulin|lisinopril|atorvastatin|sertraline|amoxicillin/i;
/** How far (characters) health language may sit from an identifier and still be about that person. */
const PROXIMITY = 160;

function scan(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const detector of DETECTORS) {
    const re = new RegExp(detector.pattern.source, detector.pattern.flags);
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (!detector.accept || detector.accept(m, text)) hits.push({ cls: detector.cls, kind: detector.kind, start: m.index, end: m.index + m[0].length });
    }
  }
  return hits;
}

/**
 * Diagnosis or prescription language within PROXIMITY characters of a person identifier is PHI.
 * The identifiers' windows are merged and swept once, so many terms and many identifiers stay linear.
 */
function healthNearPerson(text: string, hits: readonly Hit[]): Hit[] {
  const windows: Array<[number, number]> = hits
    .filter((h) => PERSON_IDENTIFIERS.has(h.kind) || h.kind === "medical_record_number")
    .map((h) => [h.start - PROXIMITY, h.end + PROXIMITY]);
  const titled = new RegExp(TITLED_NAME.source, "g");
  for (let m = titled.exec(text); m !== null; m = titled.exec(text)) windows.push([m.index - PROXIMITY, m.index + m[0].length + PROXIMITY]);
  if (!windows.length) return [];
  windows.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const w of windows) {
    const last = merged[merged.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  const found: Hit[] = [];
  const terms = new RegExp(MEDICAL_TERMS.source, "gi");
  let i = 0;
  for (let m = terms.exec(text); m !== null; m = terms.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    while (i < merged.length && merged[i]![1] < start) i++;
    if (i < merged.length && merged[i]![0] <= end) {
      const kind = PRESCRIPTION.test(m[0]) ? "prescription_near_identifier" : "diagnosis_near_identifier";
      found.push({ cls: "PHI", kind, start, end });
    }
  }
  return found;
}

export function classify(text: string): Classification {
  const hits = scan(text);
  hits.push(...healthNearPerson(text, hits));
  const byClass = new Map<DataClass, Set<string>>();
  for (const h of hits) {
    let kinds = byClass.get(h.cls);
    if (!kinds) byClass.set(h.cls, (kinds = new Set()));
    kinds.add(h.kind);
  }
  const detected_classes = DATA_CLASSES.filter((c) => byClass.has(c));
  const classification: Partial<Record<DataClass, string[]>> = {};
  for (const c of detected_classes) classification[c] = [...byClass.get(c)!].sort();
  return { detected_classes, classification };
}
