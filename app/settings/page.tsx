import type { Metadata } from "next";
import { ApiKeysPanel } from "../../components/settings/api-keys-panel";
import { ModelPriceTable } from "../../components/settings/model-price-table";
import { ProviderSettings } from "../../components/settings/provider-settings";

export const metadata: Metadata = { title: "Settings" };

/** Settings: model providers (write-only keys, Test connection), the model price table, and the person's API keys. */
export default function SettingsPage() {
  return (
    <main className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-8" data-testid="settings-page">
      <h1 className="text-xl font-semibold tracking-tight">Settings</h1>
      <p className="mt-1 mb-6 text-sm text-muted">Providers and prices apply to every workflow of this studio; API keys let scripts call its API.</p>
      <div className="flex flex-col gap-10">
        <ProviderSettings />
        <ModelPriceTable />
        <ApiKeysPanel />
      </div>
    </main>
  );
}
