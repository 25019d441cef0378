/**
 * The editor link to one node at one revision, `/workflows/<id>?revision=<revisionId>&node=<nodeId>`: written by the
 * run view ("Open node", the node that produced a session at the revision the run ran) and read by the editor
 * (`useRevisionLink`). Pure, so both sides agree on one format.
 */

/** What a link names: a revision id and/or a node id (null when absent). */
export interface RevisionLink {
  revisionId: string | null;
  nodeId: string | null;
}

/** The editor's address of `nodeId` at `revisionId` in workflow `workflowId`. */
export function canvasNodeHref(workflowId: string, revisionId: string, nodeId: string): string {
  return `/workflows/${encodeURIComponent(workflowId)}?${new URLSearchParams({ revision: revisionId, node: nodeId }).toString()}`;
}

/** Reads `revision` and `node` from a URL query string (blank values count as absent). */
export function parseRevisionLink(search: string): RevisionLink {
  const params = new URLSearchParams(search);
  const value = (name: string) => {
    const raw = params.get(name)?.trim() ?? "";
    return raw === "" ? null : raw;
  };
  return { revisionId: value("revision"), nodeId: value("node") };
}
