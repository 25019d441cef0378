/**
 * Finds the Provider a spec names. Order: providers handed in by the caller (tests, the CLI), then "scripted"
 * and "demo" (always the offline demo provider), then a provider setting stored in the database, then the
 * environment / rath.config.json configuration (runtime/providers/config.ts). When none of these can build the
 * provider (no key configured), the demo provider stands in if `fallbackToDemo` is on (the embedded default).
 */
import { isRathError, RathError } from "../../runtime/errors";
import { createProviderFromConfig, loadProviderConfig, ProviderKind, type Environment } from "../../runtime/providers/config";
import type { Provider } from "../../runtime/providers/types";
import { createDemoProvider } from "../../runtime/testing/demo-provider";
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

/** Creates a resolver; providers are built once per name and cached. */
export function createProviderResolver(options: ProviderResolverOptions = {}): ProviderResolver {
  const cache = new Map<string, Promise<Provider>>();
  const env = options.env ?? process.env;
  const configFile = options.configFile ?? env.RATH_CONFIG;
  const fallback = options.fallbackToDemo ?? true;

  async function build(name: string): Promise<Provider> {
    const fixed = options.providers?.[name];
    if (fixed) return fixed;
    if (DEMO_PROVIDER_NAMES.includes(name)) return createDemoProvider();
    try {
      if (options.database) {
        const setting = await getProviderSetting(options.database, name);
        if (setting !== null) {
          const kind = ProviderKind.safeParse(setting.kind);
          if (!kind.success) throw new RathError("invalid_config", `provider setting '${name}' has kind '${setting.kind}'; expected ${ProviderKind.options.join(" or ")}`);
          const apiKey = await readProviderApiKeyForEngine(options.database, name);
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
      }
      const config = loadProviderConfig({ env, ...(configFile === undefined ? {} : { configFile }) });
      return createProviderFromConfig(config, { name });
    } catch (error) {
      if (fallback && isRathError(error, "invalid_config")) return createDemoProvider();
      throw error;
    }
  }

  return (name) => {
    let provider = cache.get(name);
    if (!provider) {
      provider = build(name);
      cache.set(name, provider);
      provider.catch(() => cache.delete(name));
    }
    return provider;
  };
}
