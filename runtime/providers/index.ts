/** Model providers: the Provider port, the OpenAI-compatible and Anthropic adapters, configuration and redaction. */
export type { ChatMessage, CompleteOptions, ModelRequest, ModelResponse, Provider, ToolSchema } from "./types";
export { FinishReason } from "./types";
export { createOpenAIProvider, describeOpenAIError, OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL, type OpenAIProviderOptions } from "./openai-provider";
export { createAnthropicProvider, describeAnthropicError, ANTHROPIC_DEFAULT_BASE_URL, ANTHROPIC_DEFAULT_MODEL, type AnthropicProviderOptions } from "./anthropic-provider";
export {
  createProviderFromConfig,
  loadProviderConfig,
  ProviderConfigFile,
  ProviderEntry,
  ProviderKind,
  SCRIPTED_PROVIDER_NAME,
  type Environment,
  type ProviderConfig,
  type ProviderSettings,
} from "./config";
export { REDACTED, redactSecrets, type RedactOptions } from "./redact";
export { computeRetryDelay, isRetryableStatus, parseRetryAfter, withRetry, type ProviderFailure, type RetryPolicy } from "./retry";
