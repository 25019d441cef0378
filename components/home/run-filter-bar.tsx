"use client";
/** The /runs filter bar: status, workflow, and a search over run ids and workflow names (typed text applied after a pause). */
import { useEffect, useRef, useState } from "react";
import { inputClasses } from "../ui/field";
import { RUN_STATUSES, type RunFilters, type RunStatusFilter } from "./run-filters";

const SEARCH_PAUSE_MS = 300;

/** Props: the filters, their setter, and the workflows to choose from. */
export function RunFilterBar({ filters, onChange, workflowNames }: { filters: RunFilters; onChange: (next: RunFilters) => void; workflowNames: Record<string, string> }) {
  const [text, setText] = useState(filters.search);
  // The last search sent: only a change from elsewhere (back button, a link) replaces what is being typed.
  const sent = useRef(filters.search);
  useEffect(() => {
    if (filters.search === sent.current) return;
    sent.current = filters.search;
    setText(filters.search);
  }, [filters.search]);
  useEffect(() => {
    if (text.trim() === sent.current) return undefined;
    const timer = window.setTimeout(() => {
      sent.current = text.trim();
      onChange({ ...filters, search: text.trim() });
    }, SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [text, filters, onChange]);
  const labelClasses = "flex flex-col gap-1 text-xs font-medium text-muted";
  return (
    <div className="mb-3 flex flex-wrap items-end gap-2" data-testid="run-filters">
      <label className={`${labelClasses} min-w-48 flex-1 sm:max-w-xs`}>
        Search
        <input type="search" data-testid="run-filter-search" className={inputClasses()} placeholder="Run id or workflow name" value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <label className={`${labelClasses} min-w-36`}>
        Status
        <select data-testid="run-filter-status" className={inputClasses()} value={filters.status} onChange={(event) => onChange({ ...filters, status: event.target.value as RunStatusFilter | "" })}>
          <option value="">Any status</option>
          {RUN_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value.replace("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <label className={`${labelClasses} min-w-48 flex-1 sm:max-w-xs`}>
        Workflow
        <select data-testid="run-filter-workflow" className={inputClasses()} value={filters.workflowId} onChange={(event) => onChange({ ...filters, workflowId: event.target.value })}>
          <option value="">Any workflow</option>
          {Object.entries(workflowNames).map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
