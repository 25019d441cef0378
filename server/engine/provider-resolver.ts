/**
 * Finds the Provider a spec names. Order: providers handed in by the caller (tests, the CLI), then "scripted"
 * and "demo" (always the offline demo provider), then a provider setting stored in the database, then the
 * environment / rath.config.json configuration (runtime/providers/config.ts). Nothing is cached but the fixed and
 * demo providers, so settings changes apply to the next run. When nothing configures `openai` or `anthropic`, the
 * demo provider stands in if `fallbackToDemo` is on (the embedded default); any other unconfigured name is an
 * `invalid_config` "provider '<name>' is not configured".
 */
import { isRathError, RathError } from "../../runtime/errors";
import { createProviderFromConfig, loadProviderConfig, ProviderKind, type Environment } from "../../runtime/providers/config";
import type { Provider } from "../../runtime/providers/types";
import { createDemoProvider } from "../../runtime/providers/demo-provider";
import type { Database } from "../db/database";
import { getProviderSetting, readProviderApiKeyForEngine } from "../db/provider-settings-store";

/** Provider names that always mean the deterministic offline demo provider. */
export const DEMO_PROVIDER_NAMES: readonly string[] = ["scripted", "demo"];

/** Resolves provider names to providers; async because settings may live in the database. */
export type ProviderResolver = (name: string) => Promise<Provider>;

/** Options of `createProviderResolver`. */
export interface ProviderResolverOptions {
  /** Fixed providers by name; they win over everything else. */
  providers?: Readonly<Record<string, Provider>>;
  /** Where stored provider settings are read. */
  database?: Database;
  /** Environment for OPENAI_* / ANTHROPIC_* (default process.env). */
  env?: Environment;
  /** A rath.config.json path (default RATH_CONFIG when set). */
  configFile?: string;
  /** Use the demo provider when a named provider cannot be built (default true). */
  fallbackToDemo?: boolean;
}

/**
 * Creates a resolver. Fixed providers and the demo provider are built once per name; providers from settings, the
 * environment and the config file are built afresh at every call (an execution calls once per name), so a key
 * rotated or a provider deleted in settings takes effect on the next run. A name nothing configures is
 * `invalid_config` "provider '<name>' is not configured"; only the built-in kind names (`openai`, `anthropic`)
 * fall back to the demo provider when `fallbackToDemo` is on.
 */
export function createProviderResolver(options: ProviderResolverOptions = {}): ProviderResolver {
  const cache = new Map<string, Provider>();
  const env = options.env ?? process.env;
  const configFile = options.configFile ?? env.RATH_CONFIG;
  const fallback = options.fallbackToDemo ?? true;

  async function fromSettings(database: Database, name: string): Promise<Provider | null> {
    const setting = await getProviderSetting(database, name);
    if (setting === null) return null;
    const kind = ProviderKind.safeParse(setting.kind);
    if (!kind.success) throw new RathError("invalid_config", `provider setting '${name}' has kind '${setting.kind}'; expected ${ProviderKind.options.join(" or ")}`);
    const apiKey = await readProviderApiKeyForEngine(database, name);
    return createProviderFromConfig({
      defaultProvider: name,
      providers: {
        [name]: {
          name,
          kind: kind.data,
          source: "file",
          ...(apiKey === null ? {} : { apiKey }),
          ...(setting.baseUrl === null ? {} : { baseURL: setting.baseUrl }),
          ...(setting.model === null ? {} : { model: setting.model }),
        },
      },
    });
  }

  function fromConfiguration(name: string): Provider {
    try {
      const config = loadProviderConfig({ env, ...(configFile === undefined ? {} : { configFile }) });
      return createProviderFromConfig(config, { name });
    } catch (error) {
      if (!isRathError(error, "invalid_config")) throw error;
      if (fallback && (ProviderKind.options as readonly string[]).includes(name)) return createDemoProvider();
      throw new RathError(
        "invalid_config",
        `provider '${name}' is not configured: no provider of that name in Settings${configFile === undefined ? "" : ` or in ${configFile}`} (${error.message}); add it in Settings → Providers or pick another provider`,
        { details: { provider: name } },
      );
    }
  }

  return async (name) => {
    const cached = cache.get(name);
    if (cached) return cached;
    const fixed = options.providers?.[name];
    if (fixed || DEMO_PROVIDER_NAMES.includes(name)) {
      const provider = fixed ?? createDemoProvider();
      cache.set(name, provider);
      return provider;
    }
    return (options.database ? await fromSettings(options.database, name) : null) ?? fromConfiguration(name);
  };
}
