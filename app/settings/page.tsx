import type { Metadata } from "next";
import { ApiKeysPanel } from "../../components/settings/api-keys-panel";

export const metadata: Metadata = { title: "Settings" };

/** Settings: the signed-in person's API keys (the providers section joins here). */
export default function SettingsPage() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-8 sm:px-6 sm:py-10" data-testid="settings-page">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <ApiKeysPanel />
    </main>
  );
}
