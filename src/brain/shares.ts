import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { brainShares } from "../db/schema";
import type { BrainConfig } from "../routing/types";
import { base64url, fromBase64url } from "../shared/base64url";
import { invalidRequest, notFound } from "../shared/errors";
import { newId, randomBase62 } from "../shared/ids";
import { pageLimit } from "../shared/schemas";
import { checkBrainSource, type BrainSource } from "./check";
import { kvGet, kvPut, type Defer } from "./kv";

/**
 * Brain-config sharing (SPEC.md 2.13, 4.8). A share is written once and never changes, so its public
 * fetch is cached in KV and by clients for as long as they like.
 */

/** 10 base62 characters: about 59.5 bits, so ids cannot be enumerated and rarely collide. */
export const SHARE_ID_LENGTH = 10;
const SHARE_ID = /^[0-9A-Za-z]{1,32}$/;
/** A collision at 59.5 bits is rare; several in a row means something else is wrong. */
const MAX_ID_ATTEMPTS = 5;
/** Long-lived: nothing invalidates a share. KV keeps hot ones near readers. */
export const SHARE_KV_TTL_S = 30 * 24 * 3600;
export const shareKvKey = (shareId: string) => `brain-share:v1:${shareId}`;

export interface ShareLinks {
  /** `{base_url}/v1/b/{id}` */
  url(shareId: string): string;
  /** `{short_url_base}/b/{id}` */
  shortUrl(shareId: string): string;
}

/** The request's origin for `url`; `SHORT_URL_BASE` (else the origin) for `short_url`. */
export function shareLinks(requestUrl: string, shortUrlBase: string | undefined): ShareLinks {
  const origin = new URL(requestUrl).origin;
  const base = shortUrlBase?.trim();
  // A misconfigured base would hand out dead links; the origin always serves /b/{id}.
  const short = (base && URL.canParse(base) ? base : origin).replace(/\/+$/, "");
  return { url: (id) => `${origin}/v1/b/${id}`, shortUrl: (id) => `${short}/b/${id}` };
}

export interface ShareDeps {
  db: Db;
  kv: KVNamespace;
  defer: Defer;
  links: ShareLinks;
  now?: () => number;
  newShareId?: () => string;
}

type Row = typeof brainShares.$inferSelect;
const seconds = (ms: number) => Math.floor(ms / 1000);

function isShareIdCollision(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed: brain_shares\.share_id/.test(e.message)) return true;
  }
  return false;
}

/** Stores the share, valid or not (invalid configs are shareable with their errors). */
export async function createShare(deps: ShareDeps, ownerId: string, source: BrainSource, title: string | null) {
  const check = checkBrainSource(source);
  const createdAt = (deps.now ?? Date.now)();
  const nextId = deps.newShareId ?? (() => randomBase62(SHARE_ID_LENGTH));
  for (let attempt = 1; ; attempt++) {
    const shareId = nextId();
    try {
      await deps.db.insert(brainShares).values({
        id: newId("bs_"),
        shareId,
        ownerId,
        title,
        config: JSON.stringify(check.config),
        brainMd: "brain_md" in source ? source.brain_md : null,
        valid: check.valid,
        errors: JSON.stringify(check.errors),
        createdAt,
      });
    } catch (e) {
      if (!isShareIdCollision(e)) throw e;
      if (attempt < MAX_ID_ATTEMPTS) continue;
      throw new Error(`no free share id after ${MAX_ID_ATTEMPTS} attempts: is the id generator random?`, { cause: e });
    }
    return {
      object: "brain.share" as const,
      share_id: shareId,
      url: deps.links.url(shareId),
      short_url: deps.links.shortUrl(shareId),
      title,
      config: check.config,
      valid: check.valid,
      errors: check.errors,
      created_at: seconds(createdAt),
    };
  }
}

export interface ShareView {
  object: "brain.share";
  share_id: string;
  title: string | null;
  config: BrainConfig;
  brain_md: string | null;
  valid: boolean;
  errors: string[];
  created_at: number;
}

const shareView = (r: Row): ShareView => ({
  object: "brain.share",
  share_id: r.shareId,
  title: r.title,
  config: JSON.parse(r.config) as BrainConfig,
  brain_md: r.brainMd,
  valid: r.valid,
  errors: JSON.parse(r.errors) as string[],
  created_at: seconds(r.createdAt),
});

/** The public fetch: KV first, then D1 (and KV filled behind the response). 404 `share_not_found`. */
export async function getShare(deps: Pick<ShareDeps, "db" | "kv" | "defer">, shareId: string): Promise<ShareView> {
  const missing = () => notFound("share_not_found", `No shared brain config has the id ${JSON.stringify(shareId.slice(0, 40))}.`);
  if (!SHARE_ID.test(shareId)) throw missing();
  const key = shareKvKey(shareId);
  const cached = await kvGet(deps.kv, key);
  if (cached !== null) return JSON.parse(cached) as ShareView;
  const row = await deps.db.select().from(brainShares).where(eq(brainShares.shareId, shareId)).get();
  if (!row) throw missing();
  const view = shareView(row);
  deps.defer(kvPut(deps.kv, key, JSON.stringify(view), SHARE_KV_TTL_S));
  return view;
}

/** `GET /v1/brain/shares` query: SPEC.md section 8 bounds (`limit` 1 to 200, default 50). */
export const shareListQuery = z.strictObject({
  limit: pageLimit,
  cursor: z.string().min(1).max(200).optional(),
});
export type ShareListQuery = z.infer<typeof shareListQuery>;

const ROW_ID = /^bs_[0-9A-Za-z]{1,64}$/;

/** Opaque to clients: base64url of the row id of the last share of the page. */
function decodeCursor(cursor: string): string {
  const bad = () => invalidRequest("Invalid cursor: pass next_cursor from a previous response unchanged.", [{ path: "cursor", message: "invalid cursor" }]);
  let id: string;
  try {
    id = new TextDecoder().decode(fromBase64url(cursor));
  } catch {
    throw bad();
  }
  if (!ROW_ID.test(id)) throw bad();
  return id;
}

/**
 * The owner's shares, newest first, keyset-paged on the time-ordered row id: shares made while a
 * client pages land before its first page and never shift the rest.
 */
export async function listShares(deps: Pick<ShareDeps, "db" | "links">, ownerId: string, q: ShareListQuery) {
  const where = [eq(brainShares.ownerId, ownerId)];
  if (q.cursor !== undefined) where.push(lt(brainShares.id, decodeCursor(q.cursor)));
  const rows = await deps.db
    .select()
    .from(brainShares)
    .where(and(...where))
    .orderBy(desc(brainShares.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  const last = page[page.length - 1];
  return {
    object: "list" as const,
    data: page.map((r) => ({
      share_id: r.shareId,
      title: r.title,
      config: JSON.parse(r.config) as BrainConfig,
      url: deps.links.url(r.shareId),
      short_url: deps.links.shortUrl(r.shareId),
      valid: r.valid,
      created_at: seconds(r.createdAt),
    })),
    has_more: hasMore,
    next_cursor: hasMore && last ? base64url(last.id) : null,
  };
}
