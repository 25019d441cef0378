"use client";
/**
 * "New from template": a dialog listing the templates (tRPC `templates.list`) with a one-line summary and the
 * node types each uses, and the provider the new workflow runs on; choosing one saves it as a new workflow
 * (`templates.create`, which refuses a provider that is not configured) and shows it on the home page.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { LayoutTemplate } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Dialog } from "../ui/dialog";
import { DEMO_RUNS_ON, type RunsOnChoice } from "./blank-spec";
import { NodeTypeChips } from "./node-type-chips";
import { RunsOnPicker } from "./runs-on-picker";

/** The dialog; `onCreated` gets the new workflow's id. */
export function TemplateGallery({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (workflowId: string) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [runsOn, setRunsOn] = useState<RunsOnChoice>(DEMO_RUNS_ON);
  const templates = useQuery({ ...trpc.templates.list.queryOptions(), enabled: open, staleTime: Infinity });
  const create = useMutation(
    trpc.templates.create.mutationOptions({
      onSuccess: (created) => {
        toast.success(`Created “${created.workflow.name}” from a template`);
        onCreated(created.workflow.id);
        onClose();
        router.refresh();
      },
    }),
  );
  return (
    <Dialog open={open} onClose={onClose} title="New workflow from a template" description="Each template runs offline on the scripted demo provider and unchanged on a real model." size="lg" testId="template-gallery">
      <div className="mb-3 max-w-sm">
        <RunsOnPicker id="template-runs-on" value={runsOn} onChange={setRunsOn} />
      </div>
      {templates.isPending ? <p className="text-muted">Loading templates…</p> : null}
      {templates.error ? <p role="alert" className="text-status-failed">{templates.error.message}</p> : null}
      {create.error ? (
        <p role="alert" className="mb-3 text-status-failed" data-testid="template-error">
          {create.error.message}
        </p>
      ) : null}
      <ul className="grid gap-2 sm:grid-cols-2">
        {(templates.data ?? []).map((template) => (
          <li key={template.slug}>
            <button
              type="button"
              data-testid="template-option"
              data-template-slug={template.slug}
              disabled={create.isPending}
              onClick={() => create.mutate({ slug: template.slug, provider: runsOn.provider })}
              className="flex h-full w-full flex-col items-start gap-2 rounded-lg border border-line bg-surface p-3 text-left hover:border-accent hover:bg-accent-soft/40 disabled:opacity-60"
            >
              <span className="flex w-full items-center gap-2">
                <LayoutTemplate className="size-4 shrink-0 text-accent" aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate text-sm font-semibold text-ink">{template.name}</span>
                <span className="shrink-0 text-[11px] text-faint tabular">{template.nodeCount} nodes</span>
              </span>
              <span className="text-xs text-muted">{template.summary}</span>
              <NodeTypeChips types={template.nodeTypes} />
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
