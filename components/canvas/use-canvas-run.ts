"use client";
/**
 * A run started from the canvas: `runs.start` on the saved revision, then `runs.onEvents` (server-sent events,
 * resumed after the last event id on reconnect) folded into node statuses for the canvas overlay.
 */
import { useMutation } from "@tanstack/react-query";
import { skipToken } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { applyOverlayEvents, initialOverlay, type OverlayEvent, type RunOverlayState } from "./run-overlay";

/** The run the canvas shows, if any. */
export interface CanvasRun {
  runId: string | null;
  overlay: RunOverlayState | null;
  starting: boolean;
  start: (input: string | null, entryNodeIds: readonly string[]) => Promise<boolean>;
  clear: () => void;
}

/** Starts runs of `workflowId` and follows the newest one. */
export function useCanvasRun(workflowId: string): CanvasRun {
  const trpc = useTRPC();
  const [runId, setRunId] = useState<string | null>(null);
  const [overlay, setOverlay] = useState<RunOverlayState | null>(null);
  const mutation = useMutation(trpc.runs.start.mutationOptions());

  useSubscription(
    trpc.runs.onEvents.subscriptionOptions(runId === null ? skipToken : { runId }, {
      onData: (envelope) => {
        const event = (envelope as { data?: OverlayEvent }).data ?? (envelope as unknown as OverlayEvent);
        setOverlay((state) => (state === null ? state : applyOverlayEvents(state, [event])));
      },
    }),
  );

  const start = useCallback(
    async (input: string | null, entryNodeIds: readonly string[]) => {
      try {
        const started = await mutation.mutateAsync({ workflowId, input });
        setOverlay(initialOverlay(entryNodeIds));
        setRunId(started.run.id);
        return true;
      } catch (error) {
        toast.error("The run did not start", { description: error instanceof Error ? error.message : String(error) });
        return false;
      }
    },
    [mutation, workflowId],
  );

  return {
    runId,
    overlay,
    starting: mutation.isPending,
    start,
    clear: () => {
      setRunId(null);
      setOverlay(null);
    },
  };
}
