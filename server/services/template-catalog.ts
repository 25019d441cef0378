/**
 * The workflow templates: the example specs of server/engine/spec/examples, as the home page's gallery shows them
 * (name, a one-line summary, the node types used) and as they become saved workflows.
 *
 * A template spec may hold placeholders that only make sense on this machine, resolved when it is instantiated:
 * - a sub-workflow node's `workflowId` `"template:<slug>"`: the workflow of that template (an existing live one
 *   with the same spec, else created first), so a template can call another;
 * - in an MCP server's command / args: `${node}` (this Node binary), `${mcp:server-filesystem}` (the installed
 *   `@modelcontextprotocol/server-filesystem` entry point, run with node, never downloaded) and `${files}` (a
 *   directory of sample files next to the database, created with its files when missing).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RathError } from "../../runtime/errors";
import type { WorkflowLayout } from "../../runtime/workflow-spec/workflow-layout";
import { NODE_TYPES, type NodeType } from "../../runtime/workflow-spec/workflow-spec";
import type { Database } from "../db/database";
import { EXAMPLE_LAYOUTS, EXAMPLE_SPECS } from "../engine/spec/examples";
import { findRevisionBySpecHash } from "../db/workflow-store";
import { compileOrRefuse, createWorkflow, type WorkflowDetail } from "./workflow-service";
import { resolveRunsOn, withRunsOn } from "./runs-on-provider";

/** One template as the gallery lists it. */
export interface TemplateSummary {
  slug: string;
  name: string;
  /** The first sentence of the spec's description. */
  summary: string;
  description: string;
  /** The node types the template uses, in palette order. */
  nodeTypes: NodeType[];
  nodeCount: number;
}

/** The order templates appear in the gallery (simple first); templates not named here follow alphabetically. */
const GALLERY_ORDER = [
  "hello-agent",
  "fork-merge-research",
  "support-triage",
  "selector-loop",
  "memory-notes",
  "long-conversation-compressor",
  "approval",
  "approved-file-write",
  "mcp-files",
  "subworkflow-brief",
  "summarizer",
];

interface TemplateShape {
  name?: unknown;
  description?: unknown;
  nodes?: Array<{ type?: unknown; config?: Record<string, unknown> }>;
}

/** Every template slug in gallery order. */
export function templateSlugs(): string[] {
  const known = GALLERY_ORDER.filter((slug) => slug in EXAMPLE_SPECS);
  const others = Object.keys(EXAMPLE_SPECS)
    .filter((slug) => !known.includes(slug))
    .sort();
  return [...known, ...others];
}

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/.exec(text.trim());
  return (match?.[1] ?? text).trim();
}

function templateShape(slug: string): TemplateShape {
  const spec = EXAMPLE_SPECS[slug];
  if (spec === undefined) throw new RathError("not_found", `template '${slug}' not found; available: ${templateSlugs().join(", ")}`);
  return spec as TemplateShape;
}

/** The gallery entry of one template. */
export function templateSummary(slug: string): TemplateSummary {
  const shape = templateShape(slug);
  const description = typeof shape.description === "string" ? shape.description : "";
  const used = new Set((shape.nodes ?? []).map((node) => node.type));
  return {
    slug,
    name: typeof shape.name === "string" ? shape.name : slug,
    summary: firstSentence(description),
    description,
    nodeTypes: NODE_TYPES.filter((type) => used.has(type)),
    nodeCount: shape.nodes?.length ?? 0,
  };
}

/** Every template's gallery entry, in gallery order. */
export function listTemplates(): TemplateSummary[] {
  return templateSlugs().map(templateSummary);
}

/** A template's stored canvas layout (Auto-layout's positions, examples/layouts); empty for a template without one. */
export function templateLayout(slug: string): WorkflowLayout {
  templateShape(slug);
  return structuredClone(EXAMPLE_LAYOUTS[slug] ?? { nodes: {} });
}

const TEMPLATE_REFERENCE = /^template:([a-z0-9-]+)$/;

/** The directory of sample files the MCP template's filesystem server may read (created with its files). */
export function templateFilesDirectory(): string {
  const databasePath = process.env.RATH_DB_PATH;
  const base = databasePath !== undefined && databasePath !== "" ? path.dirname(path.resolve(databasePath)) : path.resolve(".rath");
  const directory = path.join(base, "template-files");
  if (!existsSync(directory)) mkdirSync(directory, { recursive: true });
  const samples: Record<string, string> = {
    "README.md": "# Sample files\n\nThe MCP filesystem template lets an agent read this folder through the MCP filesystem server.\n",
    "release-notes.md":
      "# Release 1.4\n\n- Runs resume after a crash from their last checkpoint.\n- The session graph shows fork and merge edges.\n- Memory recall is faster on large stores.\n",
  };
  for (const [name, content] of Object.entries(samples)) {
    const file = path.join(directory, name);
    if (!existsSync(file)) writeFileSync(file, content);
  }
  return directory;
}

/**
 * The installed `@modelcontextprotocol/server-filesystem` entry point, resolved by Node at run time. The production
 * bundler rewrites `require.resolve` (also through `createRequire`) into its own module id, or into a stub that
 * throws, neither of which node can start; `process.getBuiltinModule` is not seen by it.
 */
function filesystemServerEntry(): string {
  const nodeModule = process.getBuiltinModule("node:module");
  return nodeModule.createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
}

function resolveString(value: string): string {
  return value
    .replaceAll("${node}", process.execPath)
    .replaceAll("${mcp:server-filesystem}", value.includes("${mcp:server-filesystem}") ? filesystemServerEntry() : "")
    .replaceAll("${files}", value.includes("${files}") ? templateFilesDirectory() : "");
}

/**
 * A template's spec with its machine placeholders resolved; `workflowIdOf` gives the workflow id for a
 * `template:<slug>` sub-workflow reference (the caller decides whether to create it).
 */
export async function resolveTemplateSpec(slug: string, workflowIdOf: (slug: string) => Promise<string>): Promise<unknown> {
  const spec = structuredClone(templateShape(slug));
  for (const node of spec.nodes ?? []) {
    const config = node.config;
    if (config === undefined) continue;
    if (node.type === "subworkflow" && typeof config.workflowId === "string") {
      const reference = TEMPLATE_REFERENCE.exec(config.workflowId);
      if (reference?.[1] !== undefined) config.workflowId = await workflowIdOf(reference[1]);
    }
    if (node.type === "tool" && config.kind === "mcp" && typeof config.server === "object" && config.server !== null) {
      const server = config.server as { command?: unknown; args?: unknown };
      if (typeof server.command === "string") server.command = resolveString(server.command);
      if (Array.isArray(server.args)) server.args = (server.args as unknown[]).map((arg) => (typeof arg === "string" ? resolveString(arg) : arg));
    }
  }
  return spec;
}

/**
 * The workflow id a `template:<slug>` reference resolves to: the newest live workflow whose revision has that
 * template's spec, else a new workflow made from the template.
 */
export async function templateWorkflowId(database: Database, slug: string): Promise<string> {
  const spec = await resolveTemplateSpec(slug, (child) => templateWorkflowId(database, child));
  const existing = await findRevisionBySpecHash(database, compileOrRefuse(spec).plan.hash);
  if (existing !== null) return existing.workflowId;
  return (await createFromTemplate(database, { slug })).workflow.id;
}

/**
 * Creates a workflow from a template (revision 1 = the resolved template spec and its stored layout); `name` defaults to the template's,
 * `provider` (runs-on-provider.ts) to the template's own (the scripted demo provider). An unconfigured provider is
 * refused before anything is written.
 */
export async function createFromTemplate(database: Database, request: { slug: string; name?: string; provider?: string }): Promise<WorkflowDetail> {
  const summary = templateSummary(request.slug);
  const runsOn = request.provider === undefined ? null : await resolveRunsOn(database, request.provider);
  const resolved = await resolveTemplateSpec(request.slug, (child) => templateWorkflowId(database, child));
  const spec = runsOn === null ? resolved : withRunsOn(resolved, runsOn);
  const name = request.name?.trim() || summary.name;
  return createWorkflow(database, { name, description: summary.description, spec, layout: templateLayout(request.slug) });
}
