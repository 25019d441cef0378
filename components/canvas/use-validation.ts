"use client";
/**
 * Validation as you edit: the spec is sent to `workflows.validate` 400 ms after the last change. A spec too big
 * to travel in a query URL is checked by the same validator in the browser (runtime/workflow-spec is
 * browser-safe: one module, one answer), so large workflows still show their problems.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { Problem } from "../../runtime/workflow-spec/problems";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";
import type { WorkflowSpec } from "../../runtime/workflow-spec/workflow-spec";
import { useTRPC } from "../trpc/trpc-context";

/** Longest spec (JSON characters) sent in a query URL; larger ones are validated in the browser. */
const MAX_QUERY_SPEC_CHARS = 6000;
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
  const text = useMemo(() => JSON.stringify(debounced), [debounced]);
  const remote = text.length <= MAX_QUERY_SPEC_CHARS;
  const query = useQuery({ ...trpc.workflows.validate.queryOptions({ spec: debounced }), enabled: remote, placeholderData: (previous) => previous, staleTime: 60_000 });
  const local = useMemo(() => (remote ? null : validateWorkflowSpec(debounced)), [remote, debounced]);
  const pending = spec !== debounced || (remote && query.isFetching);
  if (!remote && local !== null) return { problems: local.ok ? NO_PROBLEMS : local.problems, pending, error: null };
  const data = query.data;
  return {
    problems: data === undefined || data.ok ? NO_PROBLEMS : data.problems,
    pending,
    error: query.error === null ? null : query.error.message,
  };
}
