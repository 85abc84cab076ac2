// @ts-check
/**
 * The one way the console talks to the service: its public API, with the key of this tab's session.
 * The key lives in sessionStorage only (gone when the tab closes) and is sent as a bearer token.
 */
const KEY = "svc.console.key";

export const session = {
  get key() {
    return sessionStorage.getItem(KEY);
  },
  /** @param {string} key */
  set(key) {
    sessionStorage.setItem(KEY, key);
  },
  clear() {
    sessionStorage.removeItem(KEY);
  },
};

/** An error answered by the API, in SPEC.md section 7 shape (flat or wrapped in `detail`). */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message @param {unknown} body */
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** Called on a 401: the key is missing, malformed or revoked. @type {(e: ApiError) => void} */
let onUnauthorized = () => {};
/** @param {(e: ApiError) => void} fn */
export const whenUnauthorized = (fn) => (onUnauthorized = fn);

/**
 * @param {string} path
 * @param {{ method?: string, body?: unknown, auth?: boolean }} [init]
 * @returns {Promise<{ json: any, headers: Headers }>}
 */
export async function api(path, init = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  const auth = init.auth ?? true;
  if (auth && session.key) headers.authorization = `Bearer ${session.key}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, { method: init.method ?? (init.body === undefined ? "GET" : "POST"), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const e = json?.detail ?? json ?? {};
    const err = new ApiError(res.status, typeof e.error === "string" ? e.error : String(res.status), e.message ?? e.detail ?? (text.slice(0, 200) || res.statusText), json);
    if (res.status === 401 && auth) onUnauthorized(err);
    throw err;
  }
  return { json, headers: res.headers };
}

/** @param {Record<string, string | number | undefined | null>} q */
export function query(q) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== "") p.set(k, String(v));
  const t = p.toString();
  return t ? `?${t}` : "";
}
