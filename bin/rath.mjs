#!/usr/bin/env node
// The `rath` command: a tiny dispatcher. It registers tsx so subcommands can be TypeScript, then imports the
// entry of the subcommand from the table below. An entry exports `main(args: string[]): Promise<number>`
// (the exit code). To add a subcommand, add a line to COMMANDS.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Subcommand name -> entry module (relative to this file) and a one-line description. */
const COMMANDS = {
  inspect: { entry: "../runtime/cli/inspect.ts", summary: "summarise persisted sessions, lineage exports and run bundles" },
  run: { entry: "../server/cli/run.ts", summary: "validate a workflow spec, run it in this process and print the result" },
  user: { entry: "../server/cli/user.ts", summary: "create an account that can sign in to the studio (rath user create)" },
};

function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: rath <command> [arguments]\n\nCommands:\n${lines.join("\n")}\n\nRun 'rath <command> --help' for a command's options.\n`;
}

async function run(argv) {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return 0;
  }
  if (name === undefined) {
    process.stderr.write(usage());
    return 2;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`rath: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  const { register } = await import("tsx/esm/api");
  const tsconfig = fileURLToPath(new URL("../tsconfig.json", import.meta.url));
  register(existsSync(tsconfig) ? { tsconfig } : {});
  const module = await import(new URL(command.entry, import.meta.url).href);
  return module.main(rest);
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`rath: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
