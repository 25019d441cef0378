"use client";
/**
 * The providers section of /settings: the scripted demo provider (built in, always available offline) and the
 * stored providers (`settings.providers.list`: never a key, only whether one is set), each with Test connection,
 * Edit and Delete; "Add provider" opens the form.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Cloud, FlaskConical, KeyRound, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { ConnectionTest } from "./connection-test";
import { ProviderForm, type StoredProvider } from "./provider-form";

function KeyStatus({ provider }: { provider: StoredProvider }) {
  return (
    <span data-testid="provider-key-status" className={`inline-flex items-center gap-1 text-xs ${provider.hasApiKey ? "text-status-succeeded" : "text-faint"}`}>
      <KeyRound className="size-3" aria-hidden="true" />
      {provider.hasApiKey ? "key set" : "no key"}
    </span>
  );
}

function ProviderRow({ provider, onEdit }: { provider: StoredProvider; onEdit: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  const remove = useMutation(
    trpc.settings.providers.delete.mutationOptions({
      onSuccess: async () => {
        setConfirm(false);
        await queryClient.invalidateQueries({ queryKey: trpc.settings.providers.list.queryKey() });
        toast.success(`Deleted provider “${provider.name}”`);
      },
    }),
  );
  return (
    <li data-testid="provider-row" data-provider-name={provider.name} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start">
      <Cloud className="hidden size-5 shrink-0 text-faint sm:block" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h3 className="text-sm font-semibold break-all">{provider.name}</h3>
          <span className="text-xs text-muted">{provider.kind === "anthropic" ? "Anthropic" : "OpenAI-compatible"}</span>
          <KeyStatus provider={provider} />
        </div>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted">
          <dt>Model</dt>
          <dd className="min-w-0 break-all text-ink" data-testid="provider-model">
            {provider.model ?? "—"}
          </dd>
          <dt>Base URL</dt>
          <dd className="min-w-0 font-mono break-all text-ink" data-testid="provider-base-url">
            {provider.baseUrl ?? "default"}
          </dd>
        </dl>
        <div className="mt-3">
          <ConnectionTest name={provider.name} />
        </div>
      </div>
      <div className="flex shrink-0 gap-1">
        <Button size="sm" variant="ghost" icon={Pencil} onClick={onEdit} data-testid="provider-edit">
          Edit
        </Button>
        <Button size="sm" variant="ghost" icon={Trash2} onClick={() => setConfirm(true)} data-testid="provider-delete" aria-label={`Delete provider ${provider.name}`} />
      </div>
      <Dialog
        open={confirm}
        onClose={() => setConfirm(false)}
        title={`Delete provider “${provider.name}”?`}
        description="Workflows that name it fall back to the scripted demo provider until you add it again."
        size="sm"
        footer={
          <>
            <Button onClick={() => setConfirm(false)}>Cancel</Button>
            <Button variant="danger" icon={Trash2} disabled={remove.isPending} onClick={() => remove.mutate({ name: provider.name })} data-testid="provider-delete-confirm">
              Delete
            </Button>
          </>
        }
      >
        {remove.error ? <p role="alert" className="text-status-failed">{remove.error.message}</p> : null}
      </Dialog>
    </li>
  );
}

/** The section. */
export function ProviderSettings() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.settings.providers.list.queryOptions());
  const [editing, setEditing] = useState<StoredProvider | "new" | null>(null);
  return (
    <section aria-labelledby="providers-heading" className="min-w-0">
      <div className="mb-3 flex flex-wrap items-end gap-2">
        <div className="mr-auto min-w-0">
          <h2 id="providers-heading" className="text-base font-semibold">
            Model providers
          </h2>
          <p className="text-sm text-muted">Where agents, selectors and compressors send their requests. Keys are write-only.</p>
        </div>
        <Button variant="primary" icon={Plus} onClick={() => setEditing("new")} data-testid="provider-add">
          Add provider
        </Button>
      </div>
      <ul className="divide-y divide-line overflow-hidden rounded-lg border border-line bg-surface">
        <li data-testid="provider-row" data-provider-name="scripted" className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start">
          <FlaskConical className="hidden size-5 shrink-0 text-faint sm:block" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h3 className="text-sm font-semibold">scripted</h3>
              <span className="text-xs text-muted">Scripted demo provider · built in</span>
            </div>
            <p className="mt-1 text-xs text-muted">
              Deterministic, offline answers for demos and tests: it reads the conversation and answers plausibly, but it is not a model. Used by
              workflows that name “scripted” or “demo”, and by any that name a provider without a key.
            </p>
            <div className="mt-3">
              <ConnectionTest name="scripted" />
            </div>
          </div>
        </li>
        {providers.isPending ? <li className="p-4 text-sm text-muted">Loading providers…</li> : null}
        {providers.error ? (
          <li role="alert" className="p-4 text-sm text-status-failed">
            Could not load providers: {providers.error.message}
          </li>
        ) : null}
        {(providers.data ?? []).map((provider) => (
          <ProviderRow key={provider.name} provider={provider} onEdit={() => setEditing(provider)} />
        ))}
        {providers.data?.length === 0 ? (
          <li className="p-4 text-sm text-muted" data-testid="providers-empty">
            No real provider yet. Add an OpenAI-compatible server or Anthropic to run workflows on a real model.
          </li>
        ) : null}
      </ul>
      <Dialog open={editing !== null} onClose={() => setEditing(null)} title={editing === "new" ? "Add a provider" : `Edit provider “${editing?.name ?? ""}”`} size="md" testId="provider-dialog">
        {editing !== null ? <ProviderForm {...(editing === "new" ? {} : { existing: editing })} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </section>
  );
}
