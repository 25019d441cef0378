"use client";
/**
 * The workflows half of the home page: a toolbar (search, New, From template, Import) and the workflow cards.
 * Search matches name, description and node types as you type ("/" focuses it); each empty case says what to do.
 */
import { LayoutTemplate, Plus, Search, SearchX, Workflow, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Button } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { inputClasses } from "../ui/field";
import { Kbd } from "../ui/kbd";
import type { WorkflowSummary } from "./home-data";
import { ImportButton } from "./import-button";
import { NewWorkflowDialog } from "./new-workflow-dialog";
import { TemplateGallery } from "./template-gallery";
import { WorkflowCard } from "./workflow-card";

/** Whether a workflow matches every word of `query` (case-insensitive) in its name, description or node types. */
export function matchesWorkflow(workflow: Pick<WorkflowSummary, "name" | "description" | "nodeTypes">, query: string): boolean {
  const haystack = `${workflow.name} ${workflow.description} ${workflow.nodeTypes.join(" ")}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
    .every((word) => haystack.includes(word));
}

/** Toolbar and cards. */
export function WorkflowWorkspace({ workflows }: { workflows: WorkflowSummary[] }) {
  const [query, setQuery] = useState("");
  const [dialog, setDialog] = useState<"blank" | "template" | null>(null);
  const [createdId, setCreatedId] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const shown = useMemo(() => workflows.filter((workflow) => matchesWorkflow(workflow, query)), [workflows, query]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target !== null && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
      if (event.key === "/" && !typing && !event.metaKey && !event.ctrlKey) {
        event.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    if (createdId === null) return;
    const card = document.querySelector(`[data-workflow-id="${CSS.escape(createdId)}"]`);
    card?.scrollIntoView({ block: "nearest" });
    card?.querySelector<HTMLElement>("[data-testid=workflow-name]")?.focus();
  }, [createdId, workflows]);

  return (
    <section aria-labelledby="workflows-heading" className="min-w-0">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="workflows-heading" className="mr-auto text-base font-semibold">
          Workflows <span className="ml-1 text-sm font-normal text-faint tabular">{workflows.length}</span>
        </h2>
        <Button variant="primary" icon={Plus} onClick={() => setDialog("blank")} data-testid="new-workflow">
          New
        </Button>
        <Button icon={LayoutTemplate} onClick={() => setDialog("template")} data-testid="new-from-template">
          From template
        </Button>
        <ImportButton onCreated={setCreatedId} />
      </div>
      {workflows.length > 0 ? (
        <div className="relative mt-3">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-faint" aria-hidden="true" />
          <label htmlFor="workflow-search" className="sr-only">
            Search workflows
          </label>
          <input
            id="workflow-search"
            ref={search}
            type="search"
            data-testid="workflow-search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") setQuery("");
            }}
            placeholder="Search by name, description or node type"
            className={`${inputClasses()} h-9 pr-10 pl-8`}
          />
          <span className="pointer-events-none absolute top-1/2 right-2.5 hidden -translate-y-1/2 sm:block">
            <Kbd>/</Kbd>
          </span>
        </div>
      ) : null}
      {workflows.length === 0 ? (
        <div className="mt-3 rounded-lg border border-dashed border-line-strong bg-surface">
          <EmptyState
            icon={Workflow}
            title="No workflows yet"
            testId="workflows-empty"
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <Button variant="primary" icon={LayoutTemplate} onClick={() => setDialog("template")}>
                  Start from a template
                </Button>
                <Button icon={Plus} onClick={() => setDialog("blank")}>
                  Blank workflow
                </Button>
              </div>
            }
          >
            Start from a template that runs offline, begin with a blank canvas, or import a spec file.
          </EmptyState>
        </div>
      ) : shown.length === 0 ? (
        <div className="mt-3 rounded-lg border border-dashed border-line-strong bg-surface">
          <EmptyState
            icon={SearchX}
            title={`No workflow matches “${query}”`}
            testId="workflows-no-match"
            action={
              <Button icon={X} onClick={() => setQuery("")}>
                Clear search
              </Button>
            }
          >
            Search looks at names, descriptions and node types.
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-3 grid gap-3 md:grid-cols-2" data-testid="workflow-list" aria-label="Workflows">
          {shown.map((workflow) => (
            <WorkflowCard key={workflow.id} workflow={workflow} />
          ))}
        </ul>
      )}
      <NewWorkflowDialog open={dialog === "blank"} onClose={() => setDialog(null)} onCreated={setCreatedId} />
      <TemplateGallery open={dialog === "template"} onClose={() => setDialog(null)} onCreated={setCreatedId} />
    </section>
  );
}
