/**
 * "Runs on": the provider a new workflow (from a template, or blank) uses by default. It must be one the studio
 * can run: the scripted demo provider (always there) or a provider stored in Settings. The choice becomes the
 * spec's `settings.defaultProvider`, and `defaultModel` the provider's configured model (the demo's own model for
 * the demo). A provider without a model cannot run an agent, so it is refused too.
 */
import { RathError } from "../../runtime/errors";
import type { Database } from "../db/database";
import { getProviderSetting } from "../db/provider-settings-store";
import { DEMO_PROVIDER_NAMES } from "../engine/provider-resolver";

/** The demo provider's name and model, the default choice. */
export const DEMO_CHOICE = { provider: "scripted", model: "scripted-1" } as const;

/** A provider a workflow can run on, and its default model. */
export interface RunsOn {
  provider: string;
  model: string;
}

/** The provider `name` as a choice; `invalid_config` when the studio has no provider of that name. */
export async function resolveRunsOn(database: Database, name: string): Promise<RunsOn> {
  if (DEMO_PROVIDER_NAMES.includes(name)) return { provider: name, model: DEMO_CHOICE.model };
  const setting = await getProviderSetting(database, name);
  if (setting === null) {
    throw new RathError("invalid_config", `provider '${name}' is not configured: add it in Settings → Providers, or pick the scripted demo provider`, { details: { provider: name } });
  }
  if (setting.model === null || setting.model.trim() === "") {
    throw new RathError("invalid_config", `provider '${name}' has no model: set its model in Settings → Providers, or pick another provider`, { details: { provider: name } });
  }
  return { provider: name, model: setting.model };
}

/** `spec` (a template's, not yet validated) with its default provider and model set to `choice`. */
export function withRunsOn(spec: unknown, choice: RunsOn): unknown {
  if (typeof spec !== "object" || spec === null) return spec;
  const record = spec as { settings?: Record<string, unknown> };
  return { ...record, settings: { ...(record.settings ?? {}), defaultProvider: choice.provider, defaultModel: choice.model } };
}
