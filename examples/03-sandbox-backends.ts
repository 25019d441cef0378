/**
 * 03 · Sandbox backends: `session.to(backend, { workingDir })` says where tools run, like `tensor.to(device)`.
 * The same agent and the same tool call run on `local` (a directory on this host) and on `bwrap`
 * (bubblewrap: read-only root, writable workspace, no network). bwrap is skipped, with the reason, where it
 * cannot run.
 *
 *   npx tsx examples/03-sandbox-backends.ts
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, sandboxBackends, Session } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const COMMAND = "echo sandboxed > proof.txt && pwd";

const model = exampleModel((_request, index) =>
  index % 2 === 0 ? { toolCalls: [{ name: "run_shell_command", arguments: { cmd: COMMAND } }] } : { content: "The command ran." },
);
console.log(describeModel(model));

const agent = new Agent({
  name: "operator",
  instructions: `Run exactly this shell command with run_shell_command, then say it ran: ${COMMAND}`,
  provider: model.provider,
  builtins: ["run_shell_command"],
});

const ran: string[] = [];
for (const backend of ["local", "bwrap"]) {
  const availability = await sandboxBackends.get(backend).available();
  if (!availability.ok) {
    console.log(`skipping ${backend}: ${availability.reason}`);
    continue;
  }
  const workingDir = await mkdtemp(join(tmpdir(), `rath-example-03-${backend}-`));
  try {
    const input = Session.create("user", "Please run the command.").to(backend, { workingDir });
    const output = await agent.forward(input);
    printSession(`on ${backend}`, output);
    const result = output.chunks.toArray().find((chunk) => chunk.kind === "tool_result");
    const sandbox = result?.meta.evidence?.sandbox;
    const stdout = result ? (JSON.parse(result.payload.content) as { stdout?: string }).stdout?.trim() : undefined;
    const proof = (await readFile(join(workingDir, "proof.txt"), "utf8").catch(() => "(missing: the model did not run the command)")).trim();
    console.log(`  ${backend}: tool saw cwd ${stdout}; backend=${sandbox?.backend}; host file proof.txt says '${proof}'`);
    ran.push(`${backend}:${proof}`);
    await output.release();
  } finally {
    await rm(workingDir, { recursive: true, force: true });
  }
}
console.log(`ok: ran=${ran.join(",")}`);
