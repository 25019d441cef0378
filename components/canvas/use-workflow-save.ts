"use client";
/**
 * Saving: each Save is a new immutable revision whose parent is the revision this tab loaded. When another tab
 * saved meanwhile the server answers `conflict` and the editor asks: reload, or save as a copy. Also the unsaved
 * marker (document vs. the saved revision, compared as canonical JSON), the leave-page guard, and the local
 * draft written while there are unsaved changes.
 */
import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import type { Problem } from "../../runtime/workflow-spec/problems";
import { useTRPC } from "../trpc/trpc-context";
import type { RouterOutputs } from "../trpc/router-types";
import { toLayout, toSpec, type CanvasDocument } from "./canvas-document";
import { clearDraft, writeDraft } from "./draft-storage";

/** A saved revision as the API returns it. */
export type RevisionView = NonNullable<RouterOutputs["workflows"]["get"]["head"]>;

/** What the editor compares against: the revision the document started from. */
export interface SavedBase {
  revisionId: string | null;
  number: number | null;
  /** Canonical JSON of the saved spec + layout. */
  fingerprint: string;
}

/** The canonical fingerprint of a document (spec and layout). */
export function fingerprintOf(document: CanvasDocument): string {
  return canonicalJson({ spec: toSpec(document), layout: toLayout(document) });
}

/** The save state of one editor. */
export interface WorkflowSave {
  base: SavedBase;
  setBase: (base: SavedBase) => void;
  dirty: boolean;
  saving: boolean;
  save: (message?: string) => Promise<RevisionView | null>;
  conflict: boolean;
  dismissConflict: () => void;
  /** Problems the server refused the last save with. */
  refusedProblems: readonly Problem[] | null;
}

interface ErrorData {
  code?: string;
  problems?: Problem[];
}

/** Save, conflict, dirty marker and draft for `document`. */
export function useWorkflowSave(workflowId: string, document: CanvasDocument, initialBase: SavedBase, enabled: boolean): WorkflowSave {
  const trpc = useTRPC();
  const [base, setBase] = useState(initialBase);
  const [conflict, setConflict] = useState(false);
  const [refusedProblems, setRefusedProblems] = useState<readonly Problem[] | null>(null);
  const fingerprint = useMemo(() => fingerprintOf(document), [document]);
  const dirty = enabled && fingerprint !== base.fingerprint;
  const mutation = useMutation(trpc.workflows.saveRevision.mutationOptions());

  // Whether the document had unsaved changes at the last effect run. The draft is cleared only when changes go
  // away (saved, undone, discarded), never merely because the editor opened clean: the editor reads a draft left
  // by a crashed tab after this hook's first effect has run, and must still find it.
  const wasDirty = useRef(false);
  // The draft write still waiting for its debounce: done at once if the editor goes away first (a Back press or
  // a link followed right after an edit), so leaving never loses the last edit.
  const pendingDraft = useRef<(() => void) | null>(null);
  useEffect(() => {
    pendingDraft.current = null;
    // While a revision or a diff is open read-only the working document is put aside: its draft stays as it is.
    if (!enabled) return undefined;
    if (!dirty) {
      if (wasDirty.current) clearDraft(window.localStorage, workflowId);
      wasDirty.current = false;
      return undefined;
    }
    wasDirty.current = true;
    const write = () => {
      pendingDraft.current = null;
      writeDraft(window.localStorage, workflowId, { baseRevisionId: base.revisionId, spec: toSpec(document), layout: toLayout(document), savedAt: new Date().toISOString() });
    };
    pendingDraft.current = write;
    const timer = window.setTimeout(write, 300);
    return () => window.clearTimeout(timer);
  }, [enabled, dirty, document, base.revisionId, workflowId]);
  useEffect(() => () => pendingDraft.current?.(), []);

  const save = useCallback(
    async (message = ""): Promise<RevisionView | null> => {
      const spec = toSpec(document);
      const layout = toLayout(document);
      const savedFingerprint = canonicalJson({ spec, layout });
      try {
        const revision = await mutation.mutateAsync({ workflowId, parentRevisionId: base.revisionId, spec, layout, message });
        setBase({ revisionId: revision.id, number: revision.number, fingerprint: savedFingerprint });
        setRefusedProblems(null);
        toast.success(`Saved revision ${revision.number}`, { id: "workflow-saved" });
        return revision;
      } catch (error) {
        const data = (error as { data?: ErrorData }).data;
        if (data?.code === "conflict") {
          setConflict(true);
          return null;
        }
        if (data?.problems !== undefined) {
          setRefusedProblems(data.problems);
          toast.error("Not saved: the workflow has problems", { description: `${data.problems.length} problem(s); see the Problems list.` });
          return null;
        }
        toast.error("Not saved", { description: error instanceof Error ? error.message : String(error) });
        return null;
      }
    },
    [document, mutation, workflowId, base.revisionId],
  );

  return {
    base,
    setBase,
    dirty,
    saving: mutation.isPending,
    save,
    conflict,
    dismissConflict: () => setConflict(false),
    refusedProblems,
  };
}
