"use client";
/**
 * Add or edit one model provider: kind (OpenAI-compatible or Anthropic), name, base URL (http or https only),
 * model and API key. The key field is write-only: it starts empty; leaving it empty keeps the stored key, and
 * "Remove the stored key" clears it. The browser never receives a key, only whether one is set.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Save } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { checkProviderForm, type ProviderFormValues } from "./provider-form-check";

/** A stored provider as the list shows it (no key). */
export interface StoredProvider {
  name: string;
  kind: string;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
}

const KIND_LABELS: Record<ProviderFormValues["kind"], string> = { openai: "OpenAI-compatible", anthropic: "Anthropic" };

/** The form; `existing` edits that provider (its name is fixed), otherwise it adds one. */
export function ProviderForm({ existing, onDone }: { existing?: StoredProvider; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ProviderFormValues>({
    kind: existing?.kind === "anthropic" ? "anthropic" : "openai",
    name: existing?.name ?? "",
    baseUrl: existing?.baseUrl ?? "",
    model: existing?.model ?? "",
    apiKey: "",
  });
  const [removeKey, setRemoveKey] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const errors = checkProviderForm(values);
  const save = useMutation(
    trpc.settings.providers.upsert.mutationOptions({
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries({ queryKey: trpc.settings.providers.list.queryKey() });
        toast.success(`Saved provider “${saved.name}”`);
        onDone();
      },
    }),
  );
  const set = (field: keyof ProviderFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const prefix = existing ? `edit-${existing.name}` : "new-provider";
  const shown = (field: keyof ProviderFormValues) => (submitted ? (errors[field] ?? null) : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    save.mutate({
      name: values.name.trim(),
      kind: values.kind,
      baseUrl: values.baseUrl.trim() === "" ? null : values.baseUrl.trim(),
      model: values.model.trim() === "" ? null : values.model.trim(),
      ...(removeKey ? { apiKey: null } : values.apiKey === "" ? {} : { apiKey: values.apiKey }),
    });
  };

  const control = (field: keyof ProviderFormValues, hint: boolean) => ({
    id: `${prefix}-${field}`,
    "data-testid": `provider-${field}`,
    "aria-invalid": shown(field) !== null,
    "aria-describedby": fieldDescribedBy(`${prefix}-${field}`, hint, shown(field) !== null),
    className: inputClasses(shown(field) !== null),
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="provider-form" aria-label={existing ? `Edit provider ${existing.name}` : "Add a provider"}>
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-xs font-medium text-muted">Kind</legend>
        <div className="inline-flex w-fit rounded-md border border-line bg-sunken p-0.5" role="radiogroup">
          {(Object.keys(KIND_LABELS) as Array<ProviderFormValues["kind"]>).map((kind) => (
            <label
              key={kind}
              className={`cursor-pointer rounded px-3 py-1 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-focus ${
                values.kind === kind ? "bg-surface font-medium text-ink shadow-sm" : "text-muted hover:text-ink"
              }`}
            >
              <input type="radio" name={`${prefix}-kind`} value={kind} checked={values.kind === kind} onChange={() => set("kind")(kind)} className="sr-only" data-testid={`provider-kind-${kind}`} />
              {KIND_LABELS[kind]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-name`} label="Name" hint="Workflows name the provider by this (e.g. “openai”, “local-vllm”)." error={shown("name")}>
          <input {...control("name", true)} value={values.name} readOnly={existing !== undefined} onChange={(event) => set("name")(event.target.value)} autoComplete="off" />
        </Field>
        <Field id={`${prefix}-model`} label="Default model" hint="Used when a node names no model." error={shown("model")}>
          <input {...control("model", true)} value={values.model} onChange={(event) => set("model")(event.target.value)} placeholder={values.kind === "openai" ? "gpt-4o-mini" : "claude-sonnet-4-5"} autoComplete="off" />
        </Field>
        <Field
          id={`${prefix}-baseUrl`}
          label="Base URL"
          hint={values.kind === "openai" ? "Optional: any OpenAI-compatible server (vLLM, Ollama, LM Studio, Azure). http:// or https:// only." : "Optional: a proxy in front of the Anthropic API. http:// or https:// only."}
          error={shown("baseUrl")}
          className="sm:col-span-2"
        >
          <input {...control("baseUrl", true)} value={values.baseUrl} onChange={(event) => set("baseUrl")(event.target.value)} placeholder="https://api.openai.com/v1" inputMode="url" autoComplete="off" />
        </Field>
        <Field
          id={`${prefix}-apiKey`}
          label="API key"
          hint={existing?.hasApiKey ? "A key is set. Leave this empty to keep it; type a new one to replace it. Keys are never shown again." : "Stored on the server only; it is never sent back to the browser."}
          error={shown("apiKey")}
          className="sm:col-span-2"
        >
          <input
            {...control("apiKey", true)}
            type="password"
            value={values.apiKey}
            disabled={removeKey}
            onChange={(event) => set("apiKey")(event.target.value)}
            placeholder={existing?.hasApiKey ? "•••••••• (set)" : "sk-…"}
            autoComplete="new-password"
          />
        </Field>
        {existing?.hasApiKey ? (
          <label className="flex items-center gap-2 text-sm text-muted sm:col-span-2">
            <input type="checkbox" checked={removeKey} onChange={(event) => setRemoveKey(event.target.checked)} data-testid="provider-remove-key" />
            Remove the stored key
          </label>
        ) : null}
      </div>
      {save.error ? (
        <p role="alert" className="text-sm text-status-failed" data-testid="provider-save-error">
          {save.error.message}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" icon={Save} disabled={save.isPending} data-testid="provider-save">
          {save.isPending ? "Saving…" : "Save provider"}
        </Button>
      </div>
    </form>
  );
}
