/**
 * Size limits of what callers send, configurable through the environment and read on each call:
 *
 * | limit | default | variable |
 * |---|---|---|
 * | a run's input (JSON) | 1 MiB | `RATH_MAX_RUN_INPUT_BYTES` |
 * | a workflow spec (JSON) | 1 MiB | `RATH_MAX_SPEC_BYTES` |
 * | a run bundle to import | 100 MiB | `RATH_MAX_IMPORT_BYTES` |
 * | any other JSON request body | spec + input + 1 MiB | `RATH_MAX_REQUEST_BYTES` |
 *
 * Values are bytes, or a number with a KiB/MiB/GiB suffix (`KB`, `MB`, `GB` mean the same). Past a limit the
 * API answers 413 `payload_too_large` before anything is stored; request bodies are cut off while they stream.
 */
import { RathError } from "../../runtime/errors";

/** The limits in bytes. */
export interface PayloadLimits {
  readonly runInputBytes: number;
  readonly specBytes: number;
  readonly importBytes: number;
  readonly requestBytes: number;
}

/** 1 MiB. */
export const MEBIBYTE = 1024 * 1024;

const UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, kb: 1024, kib: 1024, mb: MEBIBYTE, mib: MEBIBYTE, gb: 1024 * MEBIBYTE, gib: 1024 * MEBIBYTE };

function sizeFrom(environment: Readonly<Record<string, string | undefined>>, variable: string, fallback: number): number {
  const raw = environment[variable]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw);
  const unit = match === null ? undefined : UNITS[(match[2] as string).toLowerCase()];
  const bytes = match === null || unit === undefined ? Number.NaN : Math.floor(Number(match[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new RathError("invalid_config", `${variable} must be a size such as 1048576, 512KB or 100MB; found ${JSON.stringify(raw)}`);
  }
  return bytes;
}

/** The limits from the environment (defaults above); throws `invalid_config` naming a malformed variable. */
export function payloadLimits(environment: Readonly<Record<string, string | undefined>> = process.env): PayloadLimits {
  const runInputBytes = sizeFrom(environment, "RATH_MAX_RUN_INPUT_BYTES", MEBIBYTE);
  const specBytes = sizeFrom(environment, "RATH_MAX_SPEC_BYTES", MEBIBYTE);
  return {
    runInputBytes,
    specBytes,
    importBytes: sizeFrom(environment, "RATH_MAX_IMPORT_BYTES", 100 * MEBIBYTE),
    requestBytes: sizeFrom(environment, "RATH_MAX_REQUEST_BYTES", runInputBytes + specBytes + MEBIBYTE),
  };
}

/** `1,048,576 bytes (1 MiB)`. */
export function describeBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 * MEBIBYTE, "GiB"],
    [MEBIBYTE, "MiB"],
    [1024, "KiB"],
  ];
  const unit = units.find(([size]) => bytes >= size);
  const human = unit === undefined ? "" : ` (${Number((bytes / unit[0]).toFixed(1))} ${unit[1]})`;
  return `${bytes.toLocaleString("en-US")} bytes${human}`;
}

/** The error for a payload past its limit: says what, how big, the limit and the variable that raises it. */
export function payloadTooLarge(what: string, size: number | null, limit: number, variable: string): RathError {
  const found = size === null ? "more than that" : describeBytes(size);
  return new RathError("payload_too_large", `${what} is too large: the limit is ${describeBytes(limit)} (set ${variable} to change it); found ${found}`, {
    details: { limitBytes: limit, ...(size === null ? {} : { sizeBytes: size }) },
  });
}

/** Size of a value as the API stores it (UTF-8 bytes of its JSON). */
export function jsonByteLength(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}

/** Refuses a run input larger than `RATH_MAX_RUN_INPUT_BYTES`. */
export function assertRunInputSize(input: unknown, limits: PayloadLimits = payloadLimits()): void {
  const size = jsonByteLength(input);
  if (size > limits.runInputBytes) throw payloadTooLarge("the run input", size, limits.runInputBytes, "RATH_MAX_RUN_INPUT_BYTES");
}

/** Refuses a workflow spec larger than `RATH_MAX_SPEC_BYTES`. */
export function assertSpecSize(spec: unknown, limits: PayloadLimits = payloadLimits()): void {
  const size = jsonByteLength(spec);
  if (size > limits.specBytes) throw payloadTooLarge("the workflow spec", size, limits.specBytes, "RATH_MAX_SPEC_BYTES");
}
