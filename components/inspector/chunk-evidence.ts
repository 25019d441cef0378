/**
 * Pure readers of a chunk's evidence for the inspector: a tool result's outcome (ok, or the error kind and message
 * from its content), and the effect-ledger entry of a tool call (matched by tool and arguments).
 */
import type { RouterOutputs } from "../trpc/router-types";

/** One effect-ledger entry as `runs.effects` returns it. */
export type EffectEntry = RouterOutputs["runs"]["effects"][number];

/** What a tool result says about its call. */
export interface ToolOutcome {
  ok: boolean;
  errorKind: string | null;
  message: string | null;
  /** The parsed content when it is JSON, else null. */
  result: unknown;
  resultIsJson: boolean;
}

/** Reads a tool result's content (JSON `{ok:false,error_kind,message}` for errors) together with its evidence. */
export function toolOutcome(content: string, evidence: { ok: boolean; error_kind?: string | undefined } | undefined): ToolOutcome {
  let parsed: unknown = null;
  let isJson = false;
  try {
    parsed = JSON.parse(content) as unknown;
    isJson = true;
  } catch {
    parsed = null;
  }
  const record = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  const ok = evidence?.ok ?? record?.ok !== false;
  const errorKind = evidence?.error_kind ?? (typeof record?.error_kind === "string" ? record.error_kind : null);
  const message = ok ? null : typeof record?.message === "string" ? record.message : null;
  return { ok, errorKind: ok ? null : (errorKind ?? "error"), message, result: isJson ? parsed : content, resultIsJson: isJson };
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The ledger entry of a call of `tool` with `args` (the last one, when it was called the same way twice). */
export function effectOf(effects: readonly EffectEntry[], tool: string, args: unknown): EffectEntry | null {
  const key = stable(args);
  let found: EffectEntry | null = null;
  for (const effect of effects) if (effect.tool === tool && stable(effect.args) === key) found = effect;
  return found;
}
