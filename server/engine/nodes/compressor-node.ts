import { Compressor } from "../../../runtime/agent/compressor";
import type { Session } from "../../../runtime/session/session";
import type { PlanNode } from "../spec/plan";
import { followPort, modelChoice, nodeOfType, singleInput } from "./flow";
import type { NodeEnv, NodeResult } from "./node-env";

/** Compressor: the runtime Compressor summarises the session into one `user` chunk. */
export async function executeCompressor(node: PlanNode, inputs: readonly Session[], env: NodeEnv): Promise<NodeResult> {
  const compressor = nodeOfType(node, "compressor");
  const { provider, model } = modelChoice(compressor);
  const runtime = new Compressor({
    name: compressor.label ?? compressor.id,
    provider: env.getProvider(provider),
    model,
    ...(compressor.config.instructions ? { instructions: compressor.config.instructions } : {}),
  });
  const output = await runtime.forward(singleInput(node, inputs), env.run);
  return { outputs: [output], next: followPort(node) };
}
