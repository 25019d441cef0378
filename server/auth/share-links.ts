/**
 * Read-only share links for one run (`/share/<token>`). The token is 32 random bytes in base64url (256 bits,
 * 43 characters) and is shown once, when the link is made; the database keeps only its SHA-256 (looked up by
 * hash) and its first characters so the share dialog can tell links apart. A link may expire; revoking deletes
 * it. `verifyShareToken` is the only way a token becomes a principal (principal.ts: `share-token`).
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { newSortableId } from "../db/sortable-id";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** How many characters of a token the share dialog shows. */
const SHOWN_PREFIX_LENGTH = 6;

/** The lifetimes the share dialog offers; `never` is a link that lasts until revoked. */
export const SHARE_EXPIRIES = { never: null, "1d": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;

/** The expiry a person picks when making a link. */
export const ShareExpiry = z.enum(["never", "1d", "7d", "30d"]);
export type ShareExpiry = z.infer<typeof ShareExpiry>;

/** A link as the share dialog lists it (never the token or its hash). */
export interface ShareLinkView {
  id: string;
  runId: string;
  /** The token's first characters. */
  prefix: string;
  createdAt: Date;
  /** Null: until revoked. */
  expiresAt: Date | null;
}

/** A new link: its view and the token, which is never shown again. */
export interface CreatedShareLink {
  link: ShareLinkView;
  token: string;
}

/** The SHA-256 (hex) the database keeps of a token. */
export function hashShareToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function toView(row: { id: string; runId: string; prefix: string; createdAt: Date; expiresAt: Date | null }): ShareLinkView {
  return { id: row.id, runId: row.runId, prefix: row.prefix, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

async function requireRun(database: Database, runId: string): Promise<void> {
  const run = await database.client.run.findUnique({ where: { id: runId }, select: { id: true } });
  if (run === null) throw new RathError("not_found", `run ${JSON.stringify(runId)} not found`);
}

/** Makes a link to `runId`; the returned `token` is the only copy. `createdBy` is the account, null for the local user. */
export async function createShareLink(
  database: Database,
  request: { runId: string; expiry: ShareExpiry; createdBy: string | null },
  now: Date = new Date(),
): Promise<CreatedShareLink> {
  await requireRun(database, request.runId);
  const lifetime = SHARE_EXPIRIES[request.expiry];
  const token = randomBytes(32).toString("base64url");
  const row = await database.transaction((transaction) =>
    transaction.shareLink.create({
      data: {
        id: newSortableId("share"),
        runId: request.runId,
        tokenHash: hashShareToken(token),
        prefix: token.slice(0, SHOWN_PREFIX_LENGTH),
        createdBy: request.createdBy,
        createdAt: now,
        expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime),
      },
    }),
  );
  return { link: toView(row), token };
}

/** The links of `runId` that still work, newest first (expired ones are left out). */
export async function listShareLinks(database: Database, runId: string, now: Date = new Date()): Promise<ShareLinkView[]> {
  await requireRun(database, runId);
  const rows = await database.client.shareLink.findMany({
    where: { runId, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: { createdAt: "desc" },
  });
  return rows.map(toView);
}

/** Deletes one link of `runId`; a link that is not the run's (or is gone) is `not_found`. */
export async function revokeShareLink(database: Database, runId: string, linkId: string): Promise<void> {
  const deleted = await database.transaction((transaction) => transaction.shareLink.deleteMany({ where: { id: linkId, runId } }));
  if (deleted.count === 0) throw new RathError("not_found", `no share link ${JSON.stringify(linkId)} of run ${JSON.stringify(runId)}`);
}

/** The run and link of `token` when it is a live link (known, not revoked, not expired), else null. */
export async function verifyShareToken(database: Database, token: string, now: Date = new Date()): Promise<{ runId: string; linkId: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await database.client.shareLink.findUnique({ where: { tokenHash: hashShareToken(token) }, select: { id: true, runId: true, expiresAt: true } });
  if (row === null) return null;
  if (row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) return null;
  return { runId: row.runId, linkId: row.id };
}
