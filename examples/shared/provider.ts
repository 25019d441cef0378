import { createOpenAIProvider, createScriptedProvider, type Provider, type ScriptedProviderOptions } from "../../runtime";

/** The model an example runs on, and whether it is a real one. */
export interface ExampleModel {
  provider: Provider;
  /** True when OPENAI_API_KEY is set and a real OpenAI-compatible model answers. */
  live: boolean;
}

/**
 * Picks the examples' model: a real OpenAI-compatible one when `OPENAI_API_KEY` is set (`OPENAI_BASE_URL`
 * and `OPENAI_DEFAULT_MODEL` are honoured), otherwise a scripted provider answering from the example's own
 * offline script, so every example runs without a network.
 */
export function exampleModel(offlineScript: ScriptedProviderOptions["steps"], env: NodeJS.ProcessEnv = process.env): ExampleModel {
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey) {
    const provider = createOpenAIProvider({
      apiKey,
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      ...(env.OPENAI_DEFAULT_MODEL ? { defaultModel: env.OPENAI_DEFAULT_MODEL } : {}),
    });
    return { provider, live: true };
  }
  return { provider: createScriptedProvider({ steps: offlineScript, name: "scripted", model: "scripted-example" }), live: false };
}

/** One line saying which model runs, printed first by every example that uses one. */
export function describeModel(model: ExampleModel): string {
  return model.live
    ? `model: ${model.provider.defaultModel} via ${model.provider.name} (OPENAI_API_KEY is set)`
    : "model: scripted (offline; set OPENAI_API_KEY to use a real model)";
}
