/**
 * Reads a request body while it streams in and stops at a byte limit: a body that announces more
 * (`Content-Length`) is refused before a byte is read, and one that sends more is cut off as soon as it passes
 * the limit, so an oversized upload never sits in memory whole. Past the limit: `payload_too_large` (413).
 */
import { RathError } from "../../../runtime/errors";
import { payloadTooLarge } from "../../services/payload-limits";

/** What the limit protects, for the error message: `{ what: "the run bundle", variable: "RATH_MAX_IMPORT_BYTES" }`. */
export interface BodyLimit {
  readonly bytes: number;
  readonly what: string;
  readonly variable: string;
}

/** The body's bytes, at most `limit.bytes` of them; throws `payload_too_large` past the limit. */
export async function readBoundedBody(request: Request, limit: BodyLimit): Promise<Uint8Array<ArrayBuffer>> {
  const announced = request.headers.get("content-length");
  if (announced !== null && /^\d+$/.test(announced.trim()) && Number(announced) > limit.bytes) {
    await request.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(limit.what, Number(announced), limit.bytes, limit.variable);
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit.bytes) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit.what, null, limit.bytes, limit.variable);
    }
    parts.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}

/** The body as UTF-8 text, at most `limit.bytes`; invalid UTF-8 is `invalid_argument`. */
export async function readBoundedText(request: Request, limit: BodyLimit): Promise<string> {
  const bytes = await readBoundedBody(request, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RathError("invalid_argument", `${limit.what} is not valid UTF-8 text`);
  }
}

/** A copy of `request` whose body is `body` (already read); method, headers and abort signal are kept. */
export function withBody(request: Request, body: Uint8Array<ArrayBuffer> | string): Request {
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}
