/**
 * The provider the workflows run on, shown once on the home page: the scripted demo provider (offline, labelled as
 * such) when a workflow uses it, and the providers configured in settings, with a link to change them.
 */
import Link from "next/link";
import { Cpu, KeyRound } from "lucide-react";
import { DemoProviderLabel } from "../ui/demo-provider-label";
import type { ProviderInUse } from "./home-data";

/** One compact card; never shows a key, only whether one is set. */
export function ProviderCard({ provider }: { provider: ProviderInUse }) {
  return (
    <section aria-labelledby="provider-heading" data-testid="provider-card" className="rounded-lg border border-line bg-surface p-4">
      <div className="flex items-center gap-2">
        <Cpu className="size-4 text-faint" aria-hidden="true" />
        <h2 id="provider-heading" className="text-sm font-semibold">
          Model provider
        </h2>
        <Link href="/settings" className="ml-auto text-xs font-medium text-accent hover:underline" data-testid="provider-settings-link">
          Settings
        </Link>
      </div>
      {provider.demo ? (
        <div className="mt-3 space-y-2">
          <DemoProviderLabel />
          <p className="text-xs text-muted">
            Answers are scripted, offline and free. Add an OpenAI-compatible or Anthropic key in settings to run the same workflows on a real
            model.
          </p>
        </div>
      ) : null}
      {provider.configured.length > 0 ? (
        <ul className="mt-3 space-y-1.5" data-testid="provider-configured">
          {provider.configured.map((entry) => (
            <li key={entry.name} className="flex min-w-0 items-center gap-2 text-xs">
              <span className="truncate font-medium text-ink">{entry.name}</span>
              <span className="truncate text-muted">
                {entry.kind}
                {entry.model ? ` · ${entry.model}` : ""}
              </span>
              <span className={`ml-auto inline-flex shrink-0 items-center gap-1 ${entry.hasApiKey ? "text-status-succeeded" : "text-faint"}`}>
                <KeyRound className="size-3" aria-hidden="true" />
                {entry.hasApiKey ? "key set" : "no key"}
              </span>
            </li>
          ))}
        </ul>
      ) : provider.demo ? null : (
        <p className="mt-3 text-xs text-muted">No provider configured; workflows use the providers their specs name.</p>
      )}
    </section>
  );
}
