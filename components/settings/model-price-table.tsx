"use client";
/**
 * The model price table of /settings (`settings.modelPrices.*`): USD per million input and output tokens per
 * model, which the run view uses for costs. Rows are edited in place; a row with a price that is not a
 * non-negative number is refused with the reason.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Save, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { inputClasses } from "../ui/field";

/** A price as typed: a non-negative decimal number, or the reason it is not. */
export function parsePrice(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, error: "a price is required" };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { ok: false, error: `“${trimmed}” is not a non-negative number` };
  const value = Number(trimmed);
  if (value > 1_000_000) return { ok: false, error: "at most 1,000,000 per million tokens" };
  return { ok: true, value };
}

interface Draft {
  model: string;
  input: string;
  output: string;
}

function PriceRowForm({ initial, isNew, onSaved }: { initial: Draft; isNew: boolean; onSaved?: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.settings.modelPrices.list.queryKey() });
  const save = useMutation(
    trpc.settings.modelPrices.upsert.mutationOptions({
      onSuccess: async (saved) => {
        await invalidate();
        toast.success(`Saved the price of ${saved.model}`);
        if (isNew) setDraft({ model: "", input: "", output: "" });
        onSaved?.();
      },
      onError: (caught) => setError(caught.message),
    }),
  );
  const remove = useMutation(
    trpc.settings.modelPrices.delete.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        toast.success(`Removed the price of ${initial.model}`);
      },
      onError: (caught) => setError(caught.message),
    }),
  );
  const dirty = draft.input !== initial.input || draft.output !== initial.output || draft.model !== initial.model;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const model = draft.model.trim();
    const input = parsePrice(draft.input);
    const output = parsePrice(draft.output);
    if (model === "") return setError("Model: a model name is required");
    if (!input.ok) return setError(`Input price: ${input.error}`);
    if (!output.ok) return setError(`Output price: ${output.error}`);
    setError(null);
    save.mutate({ model, inputPerMillion: input.value, outputPerMillion: output.value });
  };
  const id = isNew ? "new-price" : `price-${initial.model}`;
  return (
    <form onSubmit={submit} data-testid={isNew ? "price-new" : "price-row"} data-model={initial.model} className="grid grid-cols-2 items-start gap-2 px-4 py-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]">
      <div className="col-span-2 min-w-0 sm:col-span-1">
        <label htmlFor={`${id}-model`} className="sr-only">
          Model
        </label>
        <input
          id={`${id}-model`}
          data-testid="price-model"
          value={draft.model}
          readOnly={!isNew}
          onChange={(event) => setDraft({ ...draft, model: event.target.value })}
          placeholder="model name, e.g. gpt-4o-mini"
          className={`${inputClasses()} ${isNew ? "" : "border-transparent bg-transparent font-medium hover:border-transparent"}`}
        />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-input`} className="sr-only">
          Input price, USD per million tokens, for {draft.model || "the new model"}
        </label>
        <input id={`${id}-input`} data-testid="price-input" inputMode="decimal" value={draft.input} onChange={(event) => setDraft({ ...draft, input: event.target.value })} placeholder="input $/1M" className={`${inputClasses()} text-right tabular`} />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-output`} className="sr-only">
          Output price, USD per million tokens, for {draft.model || "the new model"}
        </label>
        <input id={`${id}-output`} data-testid="price-output" inputMode="decimal" value={draft.output} onChange={(event) => setDraft({ ...draft, output: event.target.value })} placeholder="output $/1M" className={`${inputClasses()} text-right tabular`} />
      </div>
      <div className="col-span-2 flex justify-end gap-1 sm:col-span-1">
        {isNew ? (
          <Button type="submit" icon={Plus} disabled={save.isPending} data-testid="price-add">
            Add
          </Button>
        ) : (
          <>
            <Button type="submit" size="md" variant={dirty ? "primary" : "ghost"} icon={Save} disabled={!dirty || save.isPending} aria-label={`Save the price of ${initial.model}`} data-testid="price-save" />
            <Button size="md" variant="ghost" icon={Trash2} disabled={remove.isPending} onClick={() => remove.mutate({ model: initial.model })} aria-label={`Remove the price of ${initial.model}`} data-testid="price-delete" />
          </>
        )}
      </div>
      {error ? (
        <p role="alert" className="col-span-full text-xs text-status-failed" data-testid="price-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The section. */
export function ModelPriceTable() {
  const trpc = useTRPC();
  const prices = useQuery(trpc.settings.modelPrices.list.queryOptions());
  return (
    <section aria-labelledby="prices-heading" className="min-w-0">
      <h2 id="prices-heading" className="text-base font-semibold">
        Model prices
      </h2>
      <p className="mb-3 text-sm text-muted">USD per million tokens. The run view shows a run's cost when its models are priced here.</p>
      <div className="overflow-hidden rounded-lg border border-line bg-surface">
        <div aria-hidden="true" className="hidden grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] gap-2 border-b border-line px-4 py-2 text-xs font-medium text-muted sm:grid">
          <span>Model</span>
          <span className="text-right">Input / 1M</span>
          <span className="text-right">Output / 1M</span>
          <span className="w-[68px]" />
        </div>
        <div className="divide-y divide-line" data-testid="price-table">
          {prices.error ? <p role="alert" className="px-4 py-3 text-sm text-status-failed">{prices.error.message}</p> : null}
          {(prices.data ?? []).map((price) => (
            <PriceRowForm key={`${price.model}:${price.updatedAt}`} isNew={false} initial={{ model: price.model, input: String(price.inputPerMillion), output: String(price.outputPerMillion) }} />
          ))}
          {prices.data?.length === 0 ? (
            <p className="px-4 py-3 text-sm text-muted" data-testid="prices-empty">
              No prices yet: add the models you use to see what runs cost.
            </p>
          ) : null}
          <PriceRowForm isNew initial={{ model: "", input: "", output: "" }} />
        </div>
      </div>
    </section>
  );
}
