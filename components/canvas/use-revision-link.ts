"use client";
/**
 * Opens the editor where a link asked: `/workflows/<id>?revision=<revisionId>&node=<nodeId>` (the run view's
 * "Open node" links to the node that produced a session, at the revision the run ran). The revision opens
 * read-only, as from the history (the banner leads back to editing), with the node selected and centred once the
 * canvas has drawn it. A revision or node that is not there is said in a toast; the editor stays as it was.
 */
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { useTRPCClient } from "../trpc/trpc-context";
import { documentFromSpec, type CanvasDocument } from "./canvas-document";
import { parseRevisionLink } from "./revision-link";
import type { RevisionView } from "./use-workflow-save";

/** How many animation frames to wait for the canvas to draw the node before centring it anyway. */
const MAX_FRAMES = 60;

/**
 * On open, follows the URL's revision/node link. `enter` opens a revision read-only (editor-extras); `reveal`
 * selects and centres a node of the document shown; `isDrawn` says whether the canvas has measured the node.
 */
export function useRevisionLink(
  workflowId: string,
  enter: (revision: RevisionView, document: CanvasDocument) => void,
  reveal: (nodeId: string) => void,
  isDrawn: (nodeId: string) => boolean,
): void {
  const client = useTRPCClient();
  // The link is followed once per open workflow: the callbacks are read through a ref, so new ones do not re-run it.
  const callbacks = useRef({ enter, reveal, isDrawn });
  useEffect(() => {
    callbacks.current = { enter, reveal, isDrawn };
  });
  useEffect(() => {
    const { enter, reveal, isDrawn } = callbacks.current;
    const link = parseRevisionLink(window.location.search);
    if (link.revisionId === null && link.nodeId === null) return;
    let cancelled = false;
    let frame = 0;
    const centre = (nodeId: string, inDocument: boolean, frames = 0) => {
      if (cancelled) return;
      if (!inDocument) {
        toast.error(`Node “${nodeId}” is not in this revision`, { id: "revision-link-node" });
        return;
      }
      // The canvas measures nodes a frame or two after a document is replaced; centring earlier would be undone
      // by its first fit.
      if (!isDrawn(nodeId) && frames < MAX_FRAMES) {
        frame = window.requestAnimationFrame(() => centre(nodeId, inDocument, frames + 1));
        return;
      }
      frame = window.requestAnimationFrame(() => reveal(nodeId));
    };
    if (link.revisionId === null) {
      if (link.nodeId !== null) centre(link.nodeId, true);
      return;
    }
    const nodeId = link.nodeId;
    client.workflows.getRevision.query({ workflowId, revisionId: link.revisionId }).then(
      (revision) => {
        if (cancelled) return;
        const document = documentFromSpec(revision.spec, revision.layout, "revision");
        enter(revision, document);
        if (nodeId !== null) centre(nodeId, document.nodes.some((node) => node.id === nodeId));
      },
      (error: unknown) => {
        if (cancelled) return;
        toast.error("Could not open that revision", { id: "revision-link", description: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      cancelled = true;
      window.cancelAnimationFrame(frame);
    };
  }, [client, workflowId]);
}
