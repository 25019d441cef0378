"use client";
/**
 * Validation as you edit: the spec is sent to `workflows.validate` 400 ms after the last change — the server's
 * validator is the one source of truth. The query goes as POST (the tRPC client's method override for this
 * procedure, trpc-provider.tsx), so a spec of any size fits.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Problem } from "../../runtime/workflow-spec/problems";
import type { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { useTRPC } from "../trpc/trpc-context";

const DEBOUNCE_MS = 400;
const NO_PROBLEMS: readonly Problem[] = [];

/** What validation says about the current spec. */
export interface ValidationState {
  problems: readonly Problem[];
  pending: boolean;
  error: string | null;
}

/** Validates `spec` (debounced). */
export function useValidation(spec: WorkflowSpec): ValidationState {
  const trpc = useTRPC();
  const [debounced, setDebounced] = useState(spec);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(spec), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [spec]);
  const query = useQuery({ ...trpc.workflows.validate.queryOptions({ spec: debounced }), placeholderData: (previous) => previous, staleTime: 60_000 });
  const data = query.data;
  return {
    problems: data === undefined || data.ok ? NO_PROBLEMS : data.problems,
    pending: spec !== debounced || query.isFetching,
    error: query.error === null ? null : query.error.message,
  };
}
