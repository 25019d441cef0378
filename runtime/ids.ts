import { randomUUID } from "node:crypto";
import { z } from "zod";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A session id: a UUID v4 string, branded at the parse boundary. */
export const SessionId = z.string().min(1).brand<"SessionId">();
export type SessionId = z.infer<typeof SessionId>;

/** Makes a fresh session id. */
export function newSessionId(): SessionId {
  return SessionId.parse(randomUUID());
}

/** True when the string is a canonical UUID v4 (ids loaded from files may be any non-empty string). */
export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}
