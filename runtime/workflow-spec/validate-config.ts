import { BUILTIN_TOOL_NAMES, isBuiltinToolName } from "./builtin-tool-names";
import type { Problem } from "./problems";
import type { WiredEdge } from "./validate-graph";
import type { NodeSkeleton } from "./validate-schema";
import type { WorkflowNodeOf, WorkflowSettings } from "./workflow-spec";

/** A tool name an agent will see, and where it comes from (for messages). */
interface ToolSource {
  readonly name: string;
  readonly from: string;
}

/**
 * Provider and model present on agents, selectors and compressors, unless the settings give defaults; with
 * `knownProviders`, the provider (or the default) must be one of them.
 */
export function checkModels(
  nodes: readonly NodeSkeleton[],
  settings: WorkflowSettings | undefined,
  problems: Problem[],
  knownProviders?: readonly string[],
): void {
  for (const skeleton of nodes) {
    const node = skeleton.node;
    if (!node || (node.type !== "agent" && node.type !== "selector" && node.type !== "compressor")) continue;
    const provider = node.config.provider?.trim() ? node.config.provider : settings?.defaultProvider;
    if (knownProviders && provider !== undefined && !knownProviders.includes(provider)) {
      problems.push({
        code: "unknown_provider",
        message: `${node.type} '${node.id}' uses provider '${provider}'${node.config.provider?.trim() ? "" : " (settings.defaultProvider)"}; expected one of: ${knownProviders.join(", ") || "none configured"}`,
        nodeId: node.id,
        path: ["nodes", skeleton.index, "config", "provider"],
      });
    }
    const checks = [
      { field: "provider", value: node.config.provider, fallback: settings?.defaultProvider, code: "missing_provider", setting: "defaultProvider" },
      { field: "model", value: node.config.model, fallback: settings?.defaultModel, code: "missing_model", setting: "defaultModel" },
    ] as const;
    for (const check of checks) {
      if ((check.value !== undefined && check.value.trim() !== "") || check.fallback !== undefined) continue;
      problems.push({
        code: check.code,
        message: `${node.type} '${node.id}' has no ${check.field}: expected config.${check.field} or settings.${check.setting}, found ${check.value === undefined ? "neither" : "an empty string"}`,
        nodeId: node.id,
        path: ["nodes", skeleton.index, "config", check.field],
      });
    }
  }
}

/** Code tools describe their arguments with an object JSON schema. */
export function checkToolNodes(nodes: readonly NodeSkeleton[], problems: Problem[]): void {
  for (const skeleton of nodes) {
    const node = skeleton.node;
    if (node?.type !== "tool") continue;
    if (node.config.kind === "builtin" && !isBuiltinToolName(node.config.name)) {
      problems.push({
        code: "unknown_builtin_tool",
        message: `tool '${node.id}': unknown built-in tool '${node.config.name}'; available: ${BUILTIN_TOOL_NAMES.join(", ")}`,
        nodeId: node.id,
        path: ["nodes", skeleton.index, "config", "name"],
      });
    }
    if (node.config.kind === "code" && node.config.parametersSchema.type !== "object") {
      problems.push({
        code: "invalid_tool_schema",
        message: `tool '${node.id}': parametersSchema must be a JSON schema with type "object", found type ${JSON.stringify(node.config.parametersSchema.type ?? null)}`,
        nodeId: node.id,
        path: ["nodes", skeleton.index, "config", "parametersSchema", "type"],
      });
    }
  }
}

function toolSources(node: WorkflowNodeOf<"tool">): ToolSource[] {
  const config = node.config;
  if (config.kind === "builtin") return [{ name: config.name, from: `built-in tool node '${node.id}'` }];
  if (config.kind === "code") return [{ name: config.name, from: `code tool node '${node.id}'` }];
  return (config.tools ?? []).map((tool) => ({ name: `${config.server.name}__${tool}`, from: `MCP tool node '${node.id}'` }));
}

/** Per agent: known built-ins, and no two tools with one name (built-ins listed on the agent included). */
export function checkAgentTools(byId: ReadonlyMap<string, NodeSkeleton>, wired: readonly WiredEdge[], problems: Problem[]): void {
  for (const skeleton of byId.values()) {
    const agent = skeleton.node;
    if (agent?.type !== "agent") continue;
    const sources: ToolSource[] = [];
    (agent.config.builtins ?? []).forEach((name, position) => {
      if (isBuiltinToolName(name)) {
        sources.push({ name, from: `the agent's built-ins` });
        return;
      }
      problems.push({
        code: "unknown_builtin_tool",
        message: `agent '${agent.id}': unknown built-in tool '${name}'; available: ${BUILTIN_TOOL_NAMES.join(", ")}`,
        nodeId: agent.id,
        path: ["nodes", skeleton.index, "config", "builtins", position],
      });
    });
    const mcpServers = new Map<string, string>();
    for (const item of wired) {
      if (item.portType !== "tool" || item.edge.target !== agent.id) continue;
      const tool = byId.get(item.edge.source)?.node;
      if (tool?.type !== "tool") continue;
      if (tool.config.kind === "code" && isBuiltinToolName(tool.config.name)) {
        problems.push({
          code: "duplicate_tool_name",
          message: `agent '${agent.id}': code tool '${tool.id}' is named '${tool.config.name}', which is a built-in tool's name; expected a different name`,
          nodeId: agent.id,
          edgeId: item.edge.id,
        });
      }
      if (tool.config.kind === "mcp") {
        const other = mcpServers.get(tool.config.server.name);
        if (other !== undefined) {
          problems.push({
            code: "duplicate_tool_name",
            message: `agent '${agent.id}': MCP tool nodes '${other}' and '${tool.id}' both use server name '${tool.config.server.name}', so their tools would share names; expected distinct server names`,
            nodeId: agent.id,
            edgeId: item.edge.id,
          });
        }
        mcpServers.set(tool.config.server.name, tool.id);
      }
      sources.push(...toolSources(tool));
    }
    const firstSource = new Map<string, ToolSource>();
    for (const source of sources) {
      const first = firstSource.get(source.name);
      if (!first) {
        firstSource.set(source.name, source);
        continue;
      }
      problems.push({
        code: "duplicate_tool_name",
        message: `agent '${agent.id}' has two tools named '${source.name}': from ${first.from} and from ${source.from}; expected unique tool names`,
        nodeId: agent.id,
        path: ["nodes", skeleton.index],
      });
    }
  }
}
