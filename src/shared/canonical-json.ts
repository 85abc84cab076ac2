/**
 * Canonical JSON (RFC 8785, JCS) for everything that is hashed or signed: object keys sorted by
 * UTF-16 code units, no white space, strings and numbers exactly as ECMAScript JSON.stringify
 * writes them (which is what JCS specifies). Non-finite numbers and undefined values inside
 * arrays are rejected rather than silently changed; undefined object members are omitted.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonical JSON: non-finite number");
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (value[i] === undefined) throw new TypeError("canonical JSON: undefined in array");
          out += (i ? "," : "") + canonicalJson(value[i]);
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = "{";
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        out += (first ? "" : ",") + JSON.stringify(k) + ":" + canonicalJson(v);
        first = false;
      }
      return out + "}";
    }
    default:
      throw new TypeError(`canonical JSON: unsupported type ${typeof value}`);
  }
}
