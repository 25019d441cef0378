/** Hashing of canonical JSON (server only: it uses node:crypto, so it stays out of the browser-safe spec module). */
import { createHash } from "node:crypto";
import { canonicalJson } from "../../../runtime/workflow-spec/canonical-json";

/** Lowercase hex sha256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The sha256 of a value's canonical JSON. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
