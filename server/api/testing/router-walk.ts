/**
 * Every procedure of a tRPC router, found by walking the router object itself (nested routers included), so a
 * procedure added later is covered by the tests that use this without anyone listing it.
 */
import type { AnyRouter } from "@trpc/server";

/** A procedure's dotted path and type. */
export interface WalkedProcedure {
  path: string;
  type: "query" | "mutation" | "subscription";
}

interface Node {
  _def?: { procedure?: boolean; router?: boolean; type?: WalkedProcedure["type"]; record?: Record<string, unknown> };
}

function walk(record: Record<string, unknown>, prefix: string, into: WalkedProcedure[]): void {
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    const node = value as Node;
    if (node._def?.procedure === true && node._def.type !== undefined) into.push({ path, type: node._def.type });
    else if (node._def?.router === true && node._def.record !== undefined) walk(node._def.record, path, into);
    else if (typeof value === "object" && value !== null && !("_def" in value)) walk(value as Record<string, unknown>, path, into);
  }
}

/** The router's procedures, in declaration order. */
export function walkRouter(router: AnyRouter): WalkedProcedure[] {
  const found: WalkedProcedure[] = [];
  walk(router._def.record as Record<string, unknown>, "", found);
  return found;
}
