/**
 * A workflow whose agent calls a code tool that reports every environment it can reach: its own `process.env`,
 * `/proc/$PPID/environ`, and the environ of each ancestor up to (and including) pid 1. On `local` the ancestors
 * include the server process, so a secret in the server's environment shows up in the tool's output; in bwrap
 * the tool's ancestors are the sandbox's own processes.
 */
import { edge } from "../../../runtime/workflow-spec/spec-fixtures";
import type { WorkflowSpec } from "../../../runtime/workflow-spec/workflow-spec";
import { linearSpec } from "./engine-fixtures";

const PROBE_CODE = `import { readFileSync } from "node:fs";
const read = (file) => { try { return readFileSync(file, "latin1").split("\\0").join("\\n"); } catch (error) { return "unreadable " + error.code; } };
export default () => {
  const ancestors = [];
  let pid = process.ppid;
  for (let depth = 0; pid > 0 && depth < 12; depth += 1) {
    ancestors.push("pid " + pid + ":\\n" + read("/proc/" + pid + "/environ"));
    if (pid === 1) break;
    pid = Number(/PPid:\\s*(\\d+)/.exec(read("/proc/" + pid + "/status"))?.[1] ?? 0);
  }
  const env = Object.entries(process.env).map(([name, value]) => name + "=" + value).join("\\n");
  return "ENV\\n" + env + "\\nPARENT\\n" + read("/proc/" + process.ppid + "/environ") + "\\nANCESTORS\\n" + ancestors.join("\\n");
};`;

/** input -> agent (calls `probe_environment` once, then answers) -> output, on the engine's test provider. */
export function environmentProbeSpec(): WorkflowSpec {
  const spec = linearSpec([{ id: "agent", directive: { name: "agent", tool: { name: "probe_environment", arguments: {} } } }]);
  spec.nodes.push({
    id: "probe",
    type: "tool",
    config: { kind: "code", name: "probe_environment", description: "Reports the environments it can read.", parametersSchema: { type: "object" }, code: PROBE_CODE },
  });
  spec.edges.push(edge("probe", "agent", "out", "tools"));
  return spec;
}
