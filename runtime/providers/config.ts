import { readFileSync } from "node:fs";
import { z } from "zod";
import { RathError } from "../errors";
import { createAnthropicProvider } from "./anthropic-provider";
import { createOpenAIProvider } from "./openai-provider";
import { redactSecrets } from "./redact";
import type { RetryPolicy } from "./retry";
import type { Provider } from "./types";

/** The provider adapters a configuration can name. */
export const ProviderKind = z.enum(["openai", "anthropic"]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** One provider in a config file. Keys are never written in the file: `apiKeyEnv` names the variable holding it. */
export const ProviderEntry = z.strictObject({
  kind: ProviderKind,
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1).optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name such as MY_API_KEY")
    .optional(),
  /** Header that carries the key instead of `Authorization: Bearer` (Azure OpenAI: "api-key"). OpenAI kind only. */
  apiKeyHeader: z.string().regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name").optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  timeoutMs: z.number().int().positive().optional(),
});
export type ProviderEntry = z.infer<typeof ProviderEntry>;

/** The provider part of `rath.config.json`; other top-level sections are left to their owners. */
export const ProviderConfigFile = z.looseObject({
  defaultProvider: z.string().min(1).optional(),
  providers: z.record(z.string().min(1), ProviderEntry).default({}),
});
export type ProviderConfigFile = z.infer<typeof ProviderConfigFile>;

/** A provider ready to be created: file entry and environment merged, the key read from the environment. */
export interface ProviderSettings {
  name: string;
  kind: ProviderKind;
  /** A secret: pass the settings through `redactSecrets` before logging or exporting them. */
  apiKey?: string;
  baseURL?: string;
  model?: string;
  apiKeyHeader?: string;
  maxRetries?: number;
  timeoutMs?: number;
  /** Where the entry came from: environment variables only, the config file, or both. */
  source: "env" | "file" | "file+env";
}

/** Every configured provider and which one runs when none is named. */
export interface ProviderConfig {
  /** Null when nothing is configured; "scripted" when RATH_PROVIDER asks for the scripted test double. */
  defaultProvider: string | null;
  providers: Record<string, ProviderSettings>;
}

/** Environment variables, e.g. `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The environment variable holding each kind's key, and the provider name env variables configure. */
const ENV_NAMES: Record<ProviderKind, { apiKey: string; baseURL: string; model: string }> = {
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL", model: "OPENAI_DEFAULT_MODEL" },
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL", model: "ANTHROPIC_DEFAULT_MODEL" },
};

/** The value RATH_PROVIDER takes to select the deterministic scripted provider, which the caller creates. */
export const SCRIPTED_PROVIDER_NAME = "scripted";

/**
 * Reads provider configuration from environment variables (OPENAI_*, ANTHROPIC_*, RATH_PROVIDER) and an
 * optional JSON config file. Environment variables configure the providers named "openai" and "anthropic" and
 * win over the file's entries of those names. Throws RathError("invalid_config") naming the bad field.
 */
export function loadProviderConfig(input: { env: Environment; configFile?: string }): ProviderConfig {
  const env = input.env;
  const file = input.configFile === undefined ? undefined : readConfigFile(input.configFile);
  const providers: Record<string, ProviderSettings> = {};
  for (const [name, entry] of Object.entries(file?.providers ?? {})) {
    // An entry with its own baseURL never borrows OPENAI_API_KEY / ANTHROPIC_API_KEY: that would send the
    // hosted service's key to another server. It names its variable with apiKeyEnv instead.
    const keyVariable = entry.apiKeyEnv ?? (entry.baseURL === undefined ? ENV_NAMES[entry.kind].apiKey : undefined);
    const apiKey = keyVariable === undefined ? undefined : valueOf(env, keyVariable);
    providers[name] = compact({ name, kind: entry.kind, apiKey, baseURL: entry.baseURL, model: entry.model, apiKeyHeader: entry.apiKeyHeader, maxRetries: entry.maxRetries, timeoutMs: entry.timeoutMs, source: "file" });
  }
  for (const kind of ProviderKind.options) {
    const names = ENV_NAMES[kind];
    const apiKey = valueOf(env, names.apiKey);
    const baseURL = valueOf(env, names.baseURL);
    const model = valueOf(env, names.model);
    if (apiKey === undefined && baseURL === undefined && model === undefined) continue;
    if (baseURL !== undefined) checkURL(baseURL, names.baseURL, apiKey === undefined ? [] : [apiKey]);
    const existing = providers[kind];
    if (existing && existing.kind !== kind) {
      throw new RathError("invalid_config", `provider '${kind}' in ${input.configFile} has kind '${existing.kind}', but ${names.apiKey}/${names.baseURL} configure a provider of kind '${kind}' under that name`);
    }
    providers[kind] = compact({
      ...existing,
      name: kind,
      kind,
      apiKey: existing?.apiKey ?? apiKey,
      baseURL: baseURL ?? existing?.baseURL,
      model: model ?? existing?.model,
      source: existing ? "file+env" : "env",
    });
  }
  return { defaultProvider: chooseDefault(providers, valueOf(env, "RATH_PROVIDER"), file?.defaultProvider, input.configFile), providers };
}

function chooseDefault(providers: Record<string, ProviderSettings>, fromEnv: string | undefined, fromFile: string | undefined, configFile: string | undefined): string | null {
  const available = Object.keys(providers);
  const check = (name: string, where: string): string => {
    if (name === SCRIPTED_PROVIDER_NAME || providers[name]) return name;
    throw new RathError("invalid_config", `${where} names provider '${name}', but the configured providers are: ${available.length > 0 ? available.join(", ") : "(none)"}`);
  };
  if (fromEnv !== undefined) return check(fromEnv, "RATH_PROVIDER");
  if (fromFile !== undefined) return check(fromFile, `defaultProvider in ${configFile}`);
  if (providers.openai) return "openai";
  if (providers.anthropic) return "anthropic";
  return available[0] ?? null;
}

function readConfigFile(path: string): ProviderConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : `cannot be read (${(error as Error).message})`;
    throw new RathError("invalid_config", `config file ${path} ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RathError("invalid_config", `config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ProviderConfigFile.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => describeIssue(issue, json));
    throw new RathError("invalid_config", `config file ${path} is invalid: ${problems.join("; ")}`, { details: { issues: problems } });
  }
  return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
  if (issue.code === "unrecognized_keys") {
    const hint = issue.keys.some((key) => /api_?key/i.test(key) && key !== "apiKeyEnv")
      ? " (keys do not belong in the file: put the key in an environment variable and name it with apiKeyEnv)"
      : "";
    return `${field}: unknown field ${issue.keys.map((key) => `'${key}'`).join(", ")}${hint}`;
  }
  const found = valueAt(input, issue.path);
  // A key pasted into apiKeyEnv by mistake must not be echoed back into logs.
  if (issue.path[issue.path.length - 1] === "apiKeyEnv") return `${field}: ${issue.message}`;
  return redactSecrets(`${field}: ${issue.message}${found === undefined ? " (missing)" : ` (found ${JSON.stringify(found)})`}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function checkURL(value: string, variable: string, secrets: readonly string[]): void {
  if (!/^https?:\/\//.test(value) || !URL.canParse(value)) {
    // A key pasted into the URL variable by mistake must not be echoed back into logs.
    const shown = /^[A-Za-z0-9_-]{20,}$/.test(value) ? "a value that looks like a key (not shown)" : JSON.stringify(redactSecrets(value, { secrets }));
    throw new RathError("invalid_config", `${variable} must be an http(s) URL such as http://localhost:11434/v1, found ${shown}`);
  }
}

function valueOf(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function compact(settings: ProviderSettings & Record<string, unknown>): ProviderSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as unknown as ProviderSettings;
}

/**
 * Creates the named provider (default: the configuration's default). Throws RathError("invalid_config") when
 * nothing is configured, the name is unknown, or a hosted endpoint has no API key.
 */
export function createProviderFromConfig(config: ProviderConfig, options: { name?: string; retry?: RetryPolicy } = {}): Provider {
  const name = options.name ?? config.defaultProvider;
  if (name === null) {
    throw new RathError(
      "invalid_config",
      "no model provider is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) or ANTHROPIC_API_KEY, or add providers to rath.config.json",
    );
  }
  const settings = config.providers[name];
  if (!settings) {
    const hint = name === SCRIPTED_PROVIDER_NAME ? " (the scripted provider is created by the caller, from runtime/testing)" : "";
    const available = Object.keys(config.providers);
    throw new RathError("invalid_config", `unknown provider '${name}'${hint}; configured: ${available.length > 0 ? available.join(", ") : "(none)"}`);
  }
  if (settings.apiKey === undefined && settings.baseURL === undefined) {
    throw new RathError("invalid_config", `provider '${name}' (${settings.kind}) has no API key: set ${ENV_NAMES[settings.kind].apiKey}, or point ${ENV_NAMES[settings.kind].baseURL} at a server that needs none`);
  }
  const common = {
    name,
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    ...(settings.model === undefined ? {} : { defaultModel: settings.model }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  };
  return settings.kind === "openai"
    ? createOpenAIProvider({ ...common, ...(settings.apiKeyHeader === undefined ? {} : { apiKeyHeader: settings.apiKeyHeader }) })
    : createAnthropicProvider(common);
}
