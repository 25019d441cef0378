import { z } from "zod";

export const LINEAGE_KINDS = [
  "unknown",
  "leaf_user",
  "leaf_system",
  "op_create",
  "op_session_loop",
  "op_fork",
  "op_detach",
  "op_merge",
  "op_session_compress",
] as const;
export const LineageKind = z.enum(LINEAGE_KINDS);
export type LineageKind = z.infer<typeof LineageKind>;

/** `[key, value]` pairs, in order (the reference keeps a list of tuples, not a map). */
export const LineageExtras = z.array(z.tuple([z.string(), z.unknown()]));
export type LineageExtras = z.infer<typeof LineageExtras>;

export const Lineage = z.object({
  parent_session_ids: z.array(z.string()),
  lineage_operator: z.string(),
  lineage_kind: LineageKind,
  lineage_extras: LineageExtras,
});
export type Lineage = z.infer<typeof Lineage>;

/** Value of the last extra named `key`, or undefined. */
export function extra(lineage: Lineage, key: string): unknown {
  for (let i = lineage.lineage_extras.length - 1; i >= 0; i--) {
    const pair = lineage.lineage_extras[i];
    if (pair && pair[0] === key) return pair[1];
  }
  return undefined;
}
