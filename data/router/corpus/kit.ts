/**
 * How the corpus is composed (docs/routing.md, "The corpus"). Every sentence in the language files
 * was written by hand for this corpus; a family is one hand-written request shape with a few
 * phrasings, and its slots are filled from hand-written pools (tasks, problems, texts, topics),
 * so one family yields several prompts that differ in content, not only in wording. A family
 * carries its labels; a pool entry written as [text, capability] sets the capability of the prompt.
 */

export const INTENTS = ["code", "math", "reasoning", "creative", "extraction", "summarization", "translation", "simple"] as const;
export type Intent = (typeof INTENTS)[number];
export type Capability = "light" | "standard" | "strong";
export const CAPABILITIES: readonly Capability[] = ["light", "standard", "strong"];

export type PoolEntry = string | readonly [string, Capability];
export type Pools = Record<string, readonly PoolEntry[]>;

export interface Family {
  id: string;
  intents: readonly Intent[];
  /** "slot": the capability of the first slot entry that names one (else standard). */
  capability: Capability | "slot";
  /** Phrasings; `{pool}` is a slot, `{pool*3}` three consecutive entries joined by blank lines. */
  texts: readonly PoolEntry[];
  /** How many prompts the family yields at most. */
  count: number;
}

export interface Message {
  role: "user" | "assistant";
  content: string;
}

export interface Item {
  id: string;
  lang: string;
  family: string;
  messages: Message[];
  intents: Intent[];
  capability: Capability;
  /** The hand-written request shape the prompt comes from: family and phrasing. */
  unit: string;
  split: "train" | "heldout";
}

export function fam(id: string, intents: readonly Intent[], capability: Capability | "slot", texts: readonly PoolEntry[], count = texts.length): Family {
  return { id, intents, capability, texts, count };
}

/** Turns inside one phrasing are separated by this; they alternate user, assistant, user... */
export const TURN = " ||| ";

const RANK: Record<Capability, number> = { light: 0, standard: 1, strong: 2 };

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Fills one phrasing for the k-th prompt of a family; returns the text and the capability from the slots. */
function fill(text: string, pools: Pools, k: number, salt: number): { text: string; capability: Capability | undefined } {
  let capability: Capability | undefined;
  let slotIndex = 0;
  const out = text.replace(/\{([a-z_]+)(?:\*(\d+))?\}/g, (_, name: string, times?: string) => {
    const pool = pools[name];
    if (!pool?.length) throw new Error(`unknown pool {${name}} in "${text}"`);
    const n = times ? Number(times) : 1;
    // A pseudo-random but fixed pick per (prompt, slot), so two slots do not move in step.
    const start = hash(`${salt}:${k}:${slotIndex++}`) % pool.length;
    const parts: string[] = [];
    for (let j = 0; j < n; j++) {
      const entry = pool[(start + j) % pool.length]!;
      if (typeof entry === "string") parts.push(entry);
      else {
        parts.push(entry[0]);
        if (capability === undefined || RANK[entry[1]] > RANK[capability]) capability = entry[1];
      }
    }
    return parts.join("\n\n");
  });
  return { text: out, capability };
}

/** All prompts of one language, labels attached; the split is decided later, by family. */
export function compose(lang: string, pools: Pools, families: readonly Family[]): Omit<Item, "split">[] {
  const items: Omit<Item, "split">[] = [];
  const seen = new Set<string>();
  for (const f of families) {
    const salt = hash(f.id) % 97;
    // Enough attempts for `count` distinct prompts when the pools are small.
    for (let k = 0, made = 0; k < f.count * 6 && made < f.count; k++) {
      const entry = f.texts[k % f.texts.length]!;
      const phrasing = typeof entry === "string" ? entry : entry[0];
      const filled = fill(phrasing, pools, k, salt);
      const text = filled.text;
      // A phrasing written as [text, capability] names its own capability; else the slots decide.
      const capability = typeof entry === "string" ? filled.capability : entry[1];
      if (seen.has(text)) continue;
      seen.add(text);
      const turns = text.split(TURN);
      const messages: Message[] = turns.map((content, i) => ({ role: i % 2 ? "assistant" : "user", content }));
      const cap = f.capability === "slot" ? (capability ?? "standard") : f.capability;
      const unit = `${f.id}#${k % f.texts.length}`;
      items.push({ id: `${f.id}.${made}`, lang, family: f.id, unit, messages, intents: [...f.intents], capability: cap });
      made++;
    }
  }
  return items;
}

/**
 * A fifth of the items by request shape (docs/routing.md, "The held-out fifth"): within each group,
 * shapes (`unit`) are taken in order, and a shape is picked whole when that keeps the group's picked
 * share nearest a fifth; a group of fewer than five shapes is split by prompt instead, every fifth
 * from `smallIndex`. `phase` (0 to 0.5 of a shape) moves which shapes are taken, so the validation
 * fifth carved from the train split takes other shapes than the held-out carve did. Returns a
 * predicate to call once per item, in order.
 */
export function fifthByShape<T extends { unit: string }>(items: readonly T[], groupOf: (i: T) => string, phase: number, smallIndex: number): (i: T) => boolean {
  const units = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  for (const i of items) {
    const list = units.get(groupOf(i)) ?? [];
    if (!list.includes(i.unit)) list.push(i.unit);
    units.set(groupOf(i), list);
    sizes.set(i.unit, (sizes.get(i.unit) ?? 0) + 1);
  }
  const picked = new Set<string>();
  for (const list of units.values()) {
    if (list.length < 5) continue;
    let seen = 0;
    let taken = 0;
    for (const u of list) {
      const size = sizes.get(u)!;
      if (taken + size / 2 <= 0.2 * (seen + size) + phase * size) {
        picked.add(u);
        taken += size;
      }
      seen += size;
    }
  }
  const counters = new Map<string, number>();
  return (i) => {
    if ((units.get(groupOf(i))?.length ?? 0) >= 5) return picked.has(i.unit);
    const n = counters.get(groupOf(i)) ?? 0;
    counters.set(groupOf(i), n + 1);
    return n % 5 === smallIndex;
  };
}
