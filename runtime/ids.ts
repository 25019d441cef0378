import { randomFillSync } from "node:crypto";
import { z } from "zod";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A session id: a UUID v4 string, branded at the parse boundary. */
export const SessionId = z.string().min(1).brand<"SessionId">();
export type SessionId = z.infer<typeof SessionId>;

const HEX_CODES = Array.from("0123456789abcdef", (digit) => digit.charCodeAt(0));
const DASH = "-".charCodeAt(0);
const UUID_BYTES = 16;
/** Random bytes for this many ids are drawn at once (as node's own randomUUID does). */
const POOLED_IDS = 256;
const entropy = Buffer.alloc(UUID_BYTES * POOLED_IDS);
let entropyOffset = entropy.length;
const text = Buffer.alloc(36);

/**
 * A random (version 4) UUID as one flat 36-character string. `crypto.randomUUID()` builds its result by
 * concatenation, and V8 keeps such a string as a tree of pieces (about 500 bytes); a session holds its id for
 * its whole life, so ids are written into a buffer and decoded once (56 bytes).
 */
function flatRandomUuid(): string {
  if (entropyOffset === entropy.length) {
    randomFillSync(entropy);
    entropyOffset = 0;
  }
  let at = 0;
  for (let index = 0; index < UUID_BYTES; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = DASH;
    let byte = entropy[entropyOffset + index] as number;
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX_CODES[byte >> 4] as number;
    text[at++] = HEX_CODES[byte & 0x0f] as number;
  }
  entropyOffset += UUID_BYTES;
  return text.toString("latin1", 0, 36);
}

/** Makes a fresh session id (a UUID v4). */
export function newSessionId(): SessionId {
  return flatRandomUuid() as SessionId;
}

/** True when the string is a canonical UUID v4 (ids loaded from files may be any non-empty string). */
export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}
