import { EventBus, type RuntimeEvent } from "../../../runtime/events";
import { RathError } from "../../../runtime/errors";
import type { Provider } from "../../../runtime/providers/types";
import type { NodeEnv } from "./node-env";

/** A NodeEnv for tests: providers by name, a recording event bus and shared run resources. */
export function testEnv(providers: Record<string, Provider>, extra: Partial<NodeEnv> = {}): NodeEnv & { events: RuntimeEvent[] } {
  const events: RuntimeEvent[] = [];
  const bus = new EventBus();
  bus.on((event) => events.push(event));
  return {
    getProvider(name) {
      const provider = providers[name];
      if (!provider) throw new RathError("invalid_config", `unknown provider '${name}'; available: ${Object.keys(providers).join(", ")}`);
      return provider;
    },
    run: { emit: bus.emit, resources: new Map() },
    events,
    ...extra,
  };
}
