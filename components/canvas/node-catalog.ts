/**
 * How each node type looks and what it says at a glance: icon, one-line purpose (palette), a tone (a CSS colour
 * token for the node's accent stripe) and the summary rows a node shows on the canvas (model, tools, candidates,
 * fork count...). Pure apart from the icon components.
 */
import {

  Bot,
  Brain,
  GitFork,
  GitMerge,
  LogIn,
  LogOut,
  Route,
  ShieldCheck,
  Shrink,
  Workflow,
  Wrench,
  type LucideIcon,
} from "lucide-react";
import type { NodeType, WorkflowEdge, WorkflowNode, WorkflowSettings } from "../../runtime/workflow-spec/workflow-spec";

/** The catalog entry of one node type. */
export interface NodeTypeInfo {
  readonly title: string;
  readonly icon: LucideIcon;
  readonly blurb: string;
  /** Palette group. */
  readonly group: "Flow" | "Models" | "Attachments" | "Control";
  /** Accent colour (CSS value) of the node's icon tile. */
  readonly tone: string;
}

/** Every node type's catalog entry. */
export const NODE_CATALOG: Readonly<Record<NodeType, NodeTypeInfo>> = {
  input: { title: "Input", icon: LogIn, blurb: "Where the run's text enters", group: "Flow", tone: "var(--rath-status-succeeded)" },
  agent: { title: "Agent", icon: Bot, blurb: "Model loop with tools and memory", group: "Models", tone: "var(--rath-accent)" },
  tool: { title: "Tool", icon: Wrench, blurb: "Built-in, custom code or MCP tools", group: "Attachments", tone: "var(--rath-status-waiting)" },
  selector: { title: "Selector", icon: Route, blurb: "The model picks the next step", group: "Models", tone: "var(--rath-lineage-merge)" },
  fork: { title: "Fork", icon: GitFork, blurb: "One branch per outgoing wire", group: "Control", tone: "var(--rath-lineage-fork)" },
  merge: { title: "Merge", icon: GitMerge, blurb: "Waits for all branches, joins them", group: "Control", tone: "var(--rath-lineage-merge)" },
  compressor: { title: "Compressor", icon: Shrink, blurb: "Summarises the session", group: "Models", tone: "var(--rath-lineage-compress)" },
  memory: { title: "Memory", icon: Brain, blurb: "Recall before, commit after an agent", group: "Attachments", tone: "var(--rath-status-crashed)" },
  approval: { title: "Approval", icon: ShieldCheck, blurb: "Pauses until a person decides", group: "Control", tone: "var(--rath-status-review)" },
  subworkflow: { title: "Sub-workflow", icon: Workflow, blurb: "Runs another saved workflow", group: "Control", tone: "var(--rath-status-running)" },
  output: { title: "Output", icon: LogOut, blurb: "Marks a final result", group: "Flow", tone: "var(--rath-status-succeeded)" },
};

/** One row of a node's at-a-glance summary. */
export interface SummaryRow {
  readonly label: string;
  readonly value: string;
  /** Shown dimmed (an inherited default, or nothing set yet). */
  readonly muted?: boolean;
}

function firstLine(text: string | undefined, fallback: string): { value: string; muted: boolean } {
  const line = (text ?? "").split("\n").find((candidate) => candidate.trim() !== "")?.trim();
  return line === undefined ? { value: fallback, muted: true } : { value: line, muted: false };
}

function modelRow(config: { provider?: string | undefined; model?: string | undefined }, settings: WorkflowSettings | undefined): SummaryRow {
  const model = config.model ?? settings?.defaultModel;
  const provider = config.provider ?? settings?.defaultProvider;
  const value = [provider, model].filter((part): part is string => part !== undefined && part !== "").join(" · ");
  return { label: "model", value: value === "" ? "not set" : value, muted: config.model === undefined };
}

/** What the graph around a node says (tools wired to an agent, a selector's candidates...). */
export interface NodeContext {
  readonly edges: readonly WorkflowEdge[];
  readonly nameOf: (nodeId: string) => string;
  readonly settings: WorkflowSettings | undefined;
}

/** The summary rows of one node. */
export function nodeSummary(node: WorkflowNode, context: NodeContext): SummaryRow[] {
  const incoming = (port: string) => context.edges.filter((edge) => edge.target === node.id && edge.targetPort === port);
  const outgoing = (port: string) => context.edges.filter((edge) => edge.source === node.id && edge.sourcePort === port);
  switch (node.type) {
    case "input": {
      const text = firstLine(node.config.defaultText, "run input");
      return [{ label: "default", ...text }];
    }
    case "agent": {
      const tools = [...(node.config.builtins ?? []), ...incoming("tools").map((edge) => context.nameOf(edge.source))];
      const memory = incoming("memory")[0];
      return [
        modelRow(node.config, context.settings),
        { label: "prompt", ...firstLine(node.config.instructions, "no instructions") },
        { label: "tools", value: tools.length === 0 ? "none" : tools.join(", "), muted: tools.length === 0 },
        ...(memory !== undefined ? [{ label: "memory", value: context.nameOf(memory.source) }] : []),
      ];
    }
    case "tool": {
      const config = node.config;
      if (config.kind === "builtin") return [{ label: "built-in", value: config.name }];
      if (config.kind === "code") return [{ label: "code", value: `${config.name}(…)` }, { label: "about", ...firstLine(config.description, "no description") }];
      return [
        { label: "mcp", value: `${config.server.name} · ${config.server.transport}` },
        { label: "tools", value: config.tools === undefined || config.tools.length === 0 ? "all" : config.tools.join(", "), muted: config.tools === undefined },
      ];
    }
    case "selector": {
      const candidates = outgoing("out").map((edge, index) => `${index}: ${context.nameOf(edge.target)}`);
      const done = outgoing("done")[0];
      return [
        modelRow(node.config, context.settings),
        { label: "picks", value: candidates.length === 0 ? "no candidates yet" : candidates.join(", "), muted: candidates.length === 0 },
        { label: "done", value: done === undefined ? "ends the branch" : context.nameOf(done.target), muted: done === undefined },
      ];
    }
    case "fork": {
      const count = outgoing("out").length;
      return [{ label: "branches", value: node.config.branches !== undefined ? `${node.config.branches} (wired ${count})` : String(count) }];
    }
    case "merge":
      return [{ label: "joins", value: `${incoming("in").length} branch${incoming("in").length === 1 ? "" : "es"}` }];
    case "compressor":
      return [modelRow(node.config, context.settings), { label: "prompt", ...firstLine(node.config.instructions, "default summary") }];
    case "memory":
      return [
        { label: "store", value: `${node.config.store} · ${node.config.scope}` },
        { label: "does", value: [node.config.recall ? "recall" : null, node.config.commit ? "commit" : null, node.config.remember ? "remember" : null].filter(Boolean).join(" + ") || "nothing" },
      ];
    case "approval":
      return [{ label: "asks", ...firstLine(node.config.prompt, "no prompt") }, { label: "edit", value: node.config.allowEdit ? "allowed" : "no" }];
    case "subworkflow":
      return [{ label: "runs", value: node.config.workflowId === "" ? "no workflow chosen" : node.config.workflowId, muted: node.config.workflowId === "" }, { label: "revision", value: node.config.revisionId ?? "latest", muted: node.config.revisionId === undefined }];
    case "output":
      return [{ label: "result", value: "final session text", muted: true }];
  }
}
