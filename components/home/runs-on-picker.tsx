"use client";
/**
 * "Runs on": the provider a new workflow uses by default — the scripted demo provider (offline, the default) or a
 * provider from Settings (`settings.providers.list`). One without a model is listed but cannot be picked.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../trpc/trpc-context";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { DEMO_RUNS_ON, type RunsOnChoice } from "./blank-spec";

/** The picker; `value` is the chosen provider with its model. */
export function RunsOnPicker({ id, value, onChange }: { id: string; value: RunsOnChoice; onChange: (choice: RunsOnChoice) => void }) {
  const trpc = useTRPC();
  const providers = useQuery(trpc.settings.providers.list.queryOptions());
  const stored = (providers.data ?? []).filter((provider) => provider.name !== DEMO_RUNS_ON.provider && provider.name !== "demo");
  const hint = (
    <>
      Agents use it unless they name another. <Link href="/settings" className="text-accent hover:underline">Providers in Settings</Link>
    </>
  );
  return (
    <Field id={id} label="Runs on" hint={hint}>
      <select
        id={id}
        data-testid="runs-on"
        className={inputClasses()}
        value={value.provider}
        aria-describedby={fieldDescribedBy(id, true, false)}
        onChange={(event) => {
          const picked = stored.find((provider) => provider.name === event.target.value);
          onChange(picked?.model ? { provider: picked.name, model: picked.model } : DEMO_RUNS_ON);
        }}
      >
        <option value={DEMO_RUNS_ON.provider}>Scripted demo provider (offline)</option>
        {stored.map((provider) => (
          <option key={provider.name} value={provider.name} disabled={!provider.model}>
            {provider.name} · {provider.kind}
            {provider.model ? ` · ${provider.model}` : " · no model set"}
          </option>
        ))}
      </select>
    </Field>
  );
}
