/**
 * The escape suite: real attempts to get out of a sandbox, run as tool commands on both backends. On bwrap every
 * attempt must fail. On local the suite documents what a tool can do (asserting the documented table and printing
 * it), since local confines nothing but the environment and the call's lifetime.
 */
import { createHash, randomUUID } from "node:crypto";
import { access, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BwrapBackend } from "../runtime/sandbox/bwrap-backend";
import { LocalBackend } from "../runtime/sandbox/local-backend";
import type { WorkspaceHandle } from "../runtime/sandbox/workspace-handle";
import { backendMissing, reportBwrapSkip } from "../runtime/tools/test-support";
import { openDatabase, type Database } from "../server/db/database";
import { createWorkflow } from "../server/db/workflow-store";

/** What the attempts need to know about the host. */
interface Host {
  readonly id: string;
  readonly databaseFile: string;
  readonly databaseMarker: string;
  readonly outsideDir: string;
  readonly serverEnvironHash: string;
  readonly listenerPort: number;
  readonly postgresReachable: boolean;
}

/** One attempt's outcome: whether the escape worked, and what showed it. */
interface Outcome {
  readonly escaped: boolean;
  readonly evidence: string;
}

type Attempt = (handle: WorkspaceHandle, host: Host) => Promise<Outcome>;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** A node one-liner that prints "connected" or the connect error code for 127.0.0.1:port. */
function connectProbe(port: number): string[] {
  const script = `const s=require('net').connect(${port},'127.0.0.1');s.on('connect',()=>{console.log('connected');s.destroy()});s.on('error',e=>console.log(e.code))`;
  return ["node", "-e", script];
}

/** How many processes whose command line contains `needle` still run on the host (zombies do not count). */
async function hostProcessesRunning(needle: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (commandLine.split("\0").join(" ").includes(needle) && !/\) Z /.test(stat)) count += 1;
  }
  return count;
}

function hasSysAdmin(status: string): boolean {
  const effective = /CapEff:\s*([0-9a-f]+)/.exec(status)?.[1] ?? "0";
  return (BigInt(`0x${effective}`) & (1n << 21n)) !== 0n;
}

const ATTEMPTS: Record<string, { attempt: Attempt; onLocal: (host: Host) => boolean; note: string }> = {
  "remount / read-write and write to the host's /usr": {
    note: "on local the remount is not run (it would change the host's mount table); a root tool holds CAP_SYS_ADMIN and could",
    onLocal: () => process.getuid?.() === 0,
    attempt: async (handle, host) => {
      if (handle.backend === "local") {
        const status = await handle.exec("cat /proc/self/status");
        return { escaped: hasSysAdmin(status.stdout), evidence: /CapEff:.*/.exec(status.stdout)?.[0] ?? "" };
      }
      const target = `/usr/rath-escape-${host.id}`;
      const result = await handle.exec(`grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>&1; echo "remount=$?"; touch ${target} 2>&1; echo "touch=$?"`);
      const wrote = await exists(target);
      if (wrote) await rm(target, { force: true });
      return { escaped: wrote || /remount=0/.test(result.stdout) || hasSysAdmin(result.stdout), evidence: result.stdout.replace(/\n/g, " | ") };
    },
  },
  "read /etc/shadow": {
    note: "readable when the server runs as root",
    onLocal: () => process.getuid?.() === 0,
    attempt: async (handle) => {
      const result = await handle.exec("cat /etc/shadow");
      return { escaped: result.exitCode === 0 && /^root:/m.test(result.stdout), evidence: (result.stderr || result.stdout).slice(0, 80) };
    },
  },
  "read the database file": {
    note: "the server's user can read its database",
    onLocal: () => true,
    attempt: async (handle, host) => {
      const result = await handle.exec(`cat ${host.databaseFile} ${host.databaseFile}-wal 2>&1 | grep -a -c ${host.databaseMarker}`);
      return { escaped: Number(result.stdout.trim()) > 0, evidence: `matches=${result.stdout.trim()}` };
    },
  },
  "read /proc/<server pid>/environ": {
    note: "same user: the server's environment (and any key in it) is readable",
    onLocal: () => true,
    attempt: async (handle, host) => {
      const result = await handle.exec(`cat /proc/${process.pid}/environ | sha256sum`);
      const hash = result.stdout.split(" ")[0] ?? "";
      return { escaped: hash === host.serverEnvironHash, evidence: result.stdout.trim() || result.stderr.trim() };
    },
  },
  "see the server's process in /proc": {
    note: "local shares the host's pid namespace",
    onLocal: () => true,
    attempt: async (handle) => {
      const result = await handle.exec(`test -d /proc/${process.pid} && echo visible || echo hidden; ls /proc | grep -c '^[0-9]'`);
      return { escaped: result.stdout.startsWith("visible"), evidence: result.stdout.replace(/\n/g, " ") };
    },
  },
  "write outside the workspace (/var/tmp, /tmp, the project's .rath/)": {
    note: "the server's user can write wherever it may",
    onLocal: () => true,
    attempt: async (handle, host) => {
      const targets = [`/var/tmp/rath-escape-${host.id}`, path.join(tmpdir(), `rath-escape-${host.id}`), path.join(host.outsideDir, "written")];
      const result = await handle.exec(targets.map((target) => `echo x > ${target}`).join("; "));
      const written = [];
      for (const target of targets) {
        if (await exists(target)) written.push(target);
        await rm(target, { force: true });
      }
      return { escaped: written.length > 0, evidence: written.length > 0 ? `wrote ${written.join(", ")}` : result.stderr.split("\n")[0] ?? "" };
    },
  },
  "connect to 127.0.0.1:5432 (PostgreSQL)": {
    note: "local shares the host's network (succeeds when PostgreSQL is listening)",
    onLocal: (host) => host.postgresReachable,
    attempt: async (handle) => {
      const result = await handle.exec(connectProbe(5432));
      return { escaped: result.stdout.trim() === "connected", evidence: result.stdout.trim() };
    },
  },
  "connect to a host TCP listener on 127.0.0.1": {
    note: "local shares the host's network",
    onLocal: () => true,
    attempt: async (handle, host) => {
      const result = await handle.exec(connectProbe(host.listenerPort));
      return { escaped: result.stdout.trim() === "connected", evidence: result.stdout.trim() };
    },
  },
  "see the server's secrets in the tool's environment": {
    note: "never: tools get a minimal environment on every backend",
    onLocal: () => false,
    attempt: async (handle) => {
      const result = await handle.exec("env");
      return { escaped: result.stdout.includes("sk-escape-suite-secret"), evidence: result.stdout.split("\n").map((line) => line.split("=")[0]).join(",") };
    },
  },
  "start 256 processes (bounded fork bomb)": {
    note: "local sets no process limit",
    onLocal: () => true,
    attempt: async (handle, host) => {
      const result = await handle.exec(`i=0; while [ $i -lt 256 ]; do sleep 37.${host.id.length} & i=$((i+1)); done; echo "started=$i"`);
      const left = await hostProcessesRunning(`sleep 37.${host.id.length}`);
      expect(left, "the fork bomb's processes must not outlive the call").toBe(0);
      return { escaped: /started=256/.test(result.stdout), evidence: `${result.stdout.trim()} ${result.stderr.trim()}`.slice(0, 120) };
    },
  },
  "leave a process running after the call (background, nohup, setsid, double fork without environment)": {
    note: "never: every process a call started is killed when it ends",
    onLocal: () => false,
    attempt: async (handle) => {
      const late = ["late-background", "late-nohup", "late-setsid", "late-detached"];
      const script = [
        "(sleep 1; echo x > late-background) &",
        "nohup sh -c 'sleep 1; echo x > late-nohup' > /dev/null 2>&1 &",
        "setsid sh -c 'sleep 1; echo x > late-setsid' > /dev/null 2>&1 &",
        `env -i /usr/bin/setsid /bin/sh -c '(sleep 1; echo x > ${handle.location.innerDir}/late-detached) &' > /dev/null 2>&1 &`,
        "echo returned",
      ].join(" ");
      const result = await handle.exec(script);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const survivors = [];
      for (const name of late) if (await handle.exists(name)) survivors.push(name);
      return { escaped: survivors.length > 0, evidence: survivors.length > 0 ? `wrote ${survivors.join(", ")}` : `${result.stdout.trim()}; nothing written later` };
    },
  },
  "print 100 MB of output": {
    note: "never: output is cut at the capture limit and the command is stopped past the output limit",
    onLocal: () => false,
    attempt: async (handle) => {
      const before = process.memoryUsage().rss;
      const result = await handle.exec("head -c 100000000 /dev/zero | tr '\\0' a; echo finished-printing >&2", { outputLimitBytes: 20_000 });
      const grown = process.memoryUsage().rss - before;
      expect(result.stdout.length).toBe(20_000);
      expect(result.truncated).toBe(true);
      expect(result.stderr).toContain("was stopped");
      expect(result.stderr).not.toContain("finished-printing");
      return { escaped: grown > 64 * 1024 * 1024, evidence: `kept ${result.stdout.length} bytes, rss +${Math.round(grown / 1024 / 1024)} MiB` };
    },
  },
};

let host: Host;
let database: Database;
let server: Server;
let databaseDir = "";

beforeAll(async () => {
  reportBwrapSkip();
  const id = randomUUID().slice(0, 8);
  // Inside the project, where the studio keeps its database (.rath/), not under /tmp (which bwrap replaces anyway).
  await mkdir(path.join(process.cwd(), ".rath"), { recursive: true });
  databaseDir = await mkdtemp(path.join(process.cwd(), ".rath", "escape-test-"));
  const databaseFile = path.join(databaseDir, "studio.db");
  database = await openDatabase({ url: `file:${databaseFile}` });
  const databaseMarker = `escape-marker-${id}`;
  await createWorkflow(database, { name: databaseMarker });
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const postgres = await new Promise<boolean>((resolve) => {
    const socket = connect(5432, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
  host = {
    id,
    databaseFile,
    databaseMarker,
    outsideDir: databaseDir,
    serverEnvironHash: createHash("sha256").update(await readFile("/proc/self/environ")).digest("hex"),
    listenerPort: typeof address === "object" && address ? address.port : 0,
    postgresReachable: postgres,
  };
  process.env.OPENAI_API_KEY = "sk-escape-suite-secret";
});

afterAll(async () => {
  delete process.env.OPENAI_API_KEY;
  server?.close();
  await database?.close();
  await rm(databaseDir, { recursive: true, force: true });
});

const results: Record<"local" | "bwrap", Record<string, Outcome>> = { local: {}, bwrap: {} };

describe.each(["local", "bwrap"] as const)("escape attempts on %s", (backend) => {
  let handle: WorkspaceHandle;

  beforeAll(async () => {
    if (backendMissing(backend)) return;
    const spec = { image: null, entrypoint: null, env: {}, timeout_seconds: 20, working_dir: null };
    handle = backend === "local" ? await new LocalBackend().open(spec) : await new BwrapBackend().open(spec);
  });

  afterAll(async () => {
    await handle?.close();
  });

  it.skipIf(backendMissing(backend)).each(Object.keys(ATTEMPTS))("%s", async (name) => {
    const entry = ATTEMPTS[name]!;
    const outcome = await entry.attempt(handle, host);
    results[backend][name] = outcome;
    const expected = backend === "bwrap" ? false : entry.onLocal(host);
    expect(outcome.escaped, `${backend}: ${name}: ${outcome.evidence}`).toBe(expected);
  }, 60_000);
});

describe("the escape table", () => {
  it("prints what each backend let through", () => {
    const rows = Object.keys(ATTEMPTS).map((name) => {
      const cell = (backend: "local" | "bwrap"): string => {
        const outcome = results[backend][name];
        return outcome === undefined ? "not run" : outcome.escaped ? "ESCAPED" : "blocked";
      };
      return `| ${name} | ${cell("local")} | ${cell("bwrap")} | ${ATTEMPTS[name]!.note} |`;
    });
    console.info(["| attempt | local | bwrap | on local |", "|---|---|---|---|", ...rows].join("\n"));
    expect(Object.keys(results.local)).toHaveLength(Object.keys(ATTEMPTS).length);
  });
});
