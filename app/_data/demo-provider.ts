/**
 * Whether a workflow's models are answered by the offline scripted demo provider: a node names "scripted" or
 * "demo", or names a provider that has no key configured (the engine then falls back to the demo provider).
 * Resolution goes through the engine's own resolver, so the label and the run always agree.
 */
import type { Database } from "../../server/services/shared-database";
import { createProviderResolver, type ProviderResolver } from "../../server/engine/provider-resolver";
import { compileWorkflow } from "../../server/engine/spec/compile";
import { validateWorkflowSpec } from "../../runtime/workflow-spec/validate";

/** The provider names a spec's model nodes use, after defaults are applied (empty for an invalid spec). */
export function providerNamesOf(spec: unknown): string[] {
  const result = validateWorkflowSpec(spec);
  if (!result.ok) return [];
  const names = new Set<string>();
  for (const entry of Object.values(compileWorkflow(result.spec).nodes)) {
    const config = entry.node.config as { provider?: unknown };
    if (typeof config.provider === "string" && config.provider !== "") names.add(config.provider);
  }
  return [...names];
}

/** A checker for one page render: resolves each provider name once and answers whether a spec uses the demo. */
export function createDemoProviderCheck(database: Database): (spec: unknown) => Promise<boolean> {
  const resolve: ProviderResolver = createProviderResolver({ database });
  const known = new Map<string, Promise<boolean>>();
  const isDemo = (name: string): Promise<boolean> => {
    let answer = known.get(name);
    if (answer === undefined) {
      answer = resolve(name).then(
        (provider) => provider.kind === "scripted",
        () => false,
      );
      known.set(name, answer);
    }
    return answer;
  };
  return async (spec) => {
    const answers = await Promise.all(providerNamesOf(spec).map(isDemo));
    return answers.some(Boolean);
  };
}
