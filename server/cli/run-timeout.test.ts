import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliHarness, repositoryRoot } from "./testing/cli-harness";

const helloAgent = path.join(repositoryRoot, "server/engine/spec/examples/hello-agent.json");
const { directory, rath } = cliHarness("run", "rath-cli-timeout-");

describe("rath run --timeout-ms", () => {
  it("refuses a timeout that is not a positive whole number (exit 2)", () => {
    const result = rath([helloAgent, "--timeout-ms", "soon"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--timeout-ms expects a positive whole number of milliseconds; found 'soon'");
  });

  it("ends a run whose deadline passed before it ran as timed_out (exit 1), and lets a run with time to spare succeed", () => {
    const database = path.join(directory, "timeout.db");
    const late = rath([helloAgent, "--input", "hi", "--timeout-ms=1", "--json", "--db", database]);
    expect(late.stderr).toBe("");
    expect(late.status).toBe(1);
    const printed = JSON.parse(late.stdout) as { status: string; output: unknown; error: { code: string } };
    expect(printed).toMatchObject({ status: "timed_out", output: null, error: { code: "run_timeout" } });

    const inTime = rath([helloAgent, "--input", "hi", "--timeout-ms", "60000", "--json", "--db", database]);
    expect(inTime.status).toBe(0);
    expect((JSON.parse(inTime.stdout) as { status: string }).status).toBe("succeeded");
  });
});
