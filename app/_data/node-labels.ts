/** The canvas labels of a workflow spec's nodes, by node id (nodes without a label are left out). */
export function nodeLabelsOf(spec: unknown): Record<string, string> {
  const nodes = typeof spec === "object" && spec !== null ? (spec as { nodes?: unknown }).nodes : undefined;
  if (!Array.isArray(nodes)) return {};
  const labels: Record<string, string> = {};
  for (const node of nodes) {
    if (typeof node !== "object" || node === null) continue;
    const { id, label } = node as { id?: unknown; label?: unknown };
    if (typeof id === "string" && typeof label === "string" && label.trim() !== "") labels[id] = label;
  }
  return labels;
}
