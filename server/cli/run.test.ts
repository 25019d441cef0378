import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";
import { sessionGraph } from "../db/session-store";
import { cliHarness, repositoryRoot } from "./testing/cli-harness";

const examples = path.join(repositoryRoot, "server/engine/spec/examples");
const { directory, rath } = cliHarness("run", "rath-cli-run-");

describe("rath run", () => {
  it("runs an example spec offline and prints one JSON object; the run is stored in the --db file", async () => {
    const database = path.join(directory, "json.db");
    const result = rath([path.join(examples, "hello-agent.json"), "--input", "hi", "--json", "--db", database]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout) as { run_id: string; status: string; output: { text: string }; error: unknown };
    expect(Object.keys(printed)).toEqual(["run_id", "status", "output", "error"]);
    expect(printed.status).toBe("succeeded");
    expect(printed.output.text).toContain('"hi"');
    expect(printed.error).toBeNull();

    const opened = await openDatabase({ url: `file:${database}` });
    try {
      const run = await opened.client.run.findUnique({ where: { id: printed.run_id } });
      expect(run?.status).toBe("succeeded");
      expect((await sessionGraph(opened, printed.run_id)).sessions.length).toBeGreaterThan(1);
      expect(await opened.client.workflowRevision.count()).toBe(1);
    } finally {
      await opened.close();
    }
  });

  it("prints the run id, status and output text, and exits 1 when the run waits for a person", () => {
    const database = path.join(directory, "text.db");
    const waiting = rath([path.join(examples, "approval.json"), "--db", database]);
    expect(waiting.status).toBe(1);
    expect(waiting.stdout).toMatch(/^run run_\w+\nstatus waiting\n/);
    expect(waiting.stdout).toMatch(/waiting for a decision on interrupt int_\w+ \(node review\)/);
  });

  it("prints an invalid spec's problems with node ids and exits 2 without touching the database", () => {
    const spec = path.join(directory, "broken.json");
    writeFileSync(spec, JSON.stringify({ version: 1, name: "broken", nodes: [{ id: "writer", type: "agent", config: {} }], edges: [] }));
    const result = rath([spec, "--db", path.join(directory, "never.db")]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("problem(s)");
    expect(result.stderr).toContain("node writer, nodes[0].config.name: expected string, found nothing [invalid_field]");
    expect(result.stderr).toContain("[missing_input]");
    expect(result.stdout).toBe("");
    expect(existsSync(path.join(directory, "never.db"))).toBe(false);
    expect(rath(["--help"]).status).toBe(0);
    expect(rath([]).status).toBe(2);
    expect(rath([path.join(directory, "missing.json")]).stderr).toContain("cannot read");
    // Four CLI processes (each starts tsx): 30 s was not enough on a loaded 2-core CI machine.
  }, 120_000);
});
