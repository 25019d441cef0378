import { z } from "zod";

/** A node's position on the canvas. */
export const NodePosition = z.object({ x: z.number(), y: z.number() });
export type NodePosition = z.infer<typeof NodePosition>;

/** Canvas positions by node id. Kept apart from the spec so that moving a node never changes the spec's hash. */
export const WorkflowLayout = z.object({ nodes: z.record(z.string(), NodePosition) });
export type WorkflowLayout = z.infer<typeof WorkflowLayout>;
