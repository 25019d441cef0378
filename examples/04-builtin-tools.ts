/**
 * 04 · Built-in tools: file and shell tools that run in the session's sandbox workspace, with the reference's
 * names and arguments. A call that fails (here: a path outside the workspace) becomes an `{"ok":false,...}`
 * tool result the model can read; it never breaks the loop.
 *
 *   npx tsx examples/04-builtin-tools.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, BUILTIN_TOOL_NAMES, Session, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const script: ScriptedStep[] = [
  { toolCalls: [{ name: "write_workspace_file", arguments: { path: "notes/todo.txt", content: "buy milk\n" } }] },
  {
    toolCalls: [
      { name: "list_workspace_files", arguments: { path: "notes" } },
      { name: "workspace_path_exists", arguments: { path: "notes/todo.txt" } },
      { name: "read_workspace_file", arguments: { path: "notes/todo.txt" } },
    ],
  },
  { toolCalls: [{ name: "run_code", arguments: { code: "console.log(6 * 7)", language: "javascript" } }] },
  { toolCalls: [{ name: "run_shell_command", arguments: { cmd: "wc -c notes/todo.txt" } }] },
  { toolCalls: [{ name: "read_workspace_file", arguments: { path: "../../etc/passwd" } }] },
  { content: "Wrote, listed, read and ran; reading outside the workspace was refused." },
];
const model = exampleModel(script);
console.log(describeModel(model));
console.log(`built-in tools: ${BUILTIN_TOOL_NAMES.join(", ")}`);

const agent = new Agent({
  name: "worker",
  instructions:
    "Use the tools: write 'buy milk' to notes/todo.txt, list notes, check the file exists, read it, compute 6*7 with run_code " +
    "(javascript), count its bytes with `wc -c`, then try to read ../../etc/passwd and report what happened.",
  provider: model.provider,
  builtins: true,
});

const workingDir = await mkdtemp(join(tmpdir(), "rath-example-04-"));
try {
  const output = await agent.forward(Session.create("user", "Do the file chores.").to("local", { workingDir }));
  printSession("output", output);
  const results = output.chunks.toArray().filter((chunk) => chunk.kind === "tool_result");
  for (const result of results) {
    const evidence = result.meta.evidence;
    console.log(`  evidence ${result.payload.name}: ok=${evidence?.ok}${evidence?.error_kind ? ` error_kind=${evidence.error_kind}` : ""} args=${JSON.stringify(evidence?.args)}`);
  }
  const failed = results.filter((result) => result.meta.evidence?.ok === false);
  console.log(`ok: tool_results=${results.length} succeeded=${results.length - failed.length} failed=${failed.map((result) => result.meta.evidence?.error_kind).join(",")}`);
  await output.release();
} finally {
  await rm(workingDir, { recursive: true, force: true });
}
