/**
 * The second half of a share link's authorization: `authorize` (principal.ts) lets a `share-token` principal call
 * only the reads in SHARE_TOKEN_READS; this checks that the run or session the call names belongs to the link's
 * run. A session of another run, or one that does not exist, is refused the same way (no probing for ids).
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { SHARE_TOKEN_READS, SHARE_TOKEN_REFUSAL, type Principal } from "./principal";

function fieldOf(input: unknown, field: string): string | null {
  if (input === null || typeof input !== "object") return null;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === "string" ? value : null;
}

/** Throws `forbidden` unless `input` of procedure `path` names the share link's own run (or a session of it). */
export async function checkShareScope(database: Database, principal: Extract<Principal, { kind: "share-token" }>, path: string, input: unknown): Promise<void> {
  const field = Object.hasOwn(SHARE_TOKEN_READS, path) ? SHARE_TOKEN_READS[path] : undefined;
  const id = field === undefined ? null : fieldOf(input, field);
  if (field === "runId" && id === principal.runId) return;
  if (field === "sessionId" && id !== null) {
    const session = await database.client.session.findUnique({ where: { id }, select: { runId: true } });
    if (session?.runId === principal.runId) return;
  }
  throw new RathError("forbidden", SHARE_TOKEN_REFUSAL);
}
