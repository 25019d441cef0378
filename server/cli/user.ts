/**
 * `rath user create [--email EMAIL] [--name NAME] [--password-stdin] [--db PATH]`: creates a studio account
 * (server/auth/accounts.ts: better-auth hashes the password). Missing fields are asked for when stdin is a
 * terminal; the password is read without echo and asked twice. Scripts pass `--password-stdin` (the first line of
 * stdin). The password is never printed. Exit codes: 0 created, 1 the email is taken, 2 bad usage or input.
 */
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { isRathError } from "../../runtime/errors";
import { createAccount } from "../auth/accounts";
import { openDatabase, type Database } from "../db/database";

const USAGE = `Usage: rath user create [--email EMAIL] [--name NAME] [--password-stdin] [--db PATH]

Creates an account that can sign in to the studio (needed when it listens on an address other than loopback,
or with RATH_AUTH=required). Missing values are asked for; the password is read without echo.

Options:
  --email EMAIL       the account's email (used to sign in)
  --name NAME         the name shown in the studio
  --password-stdin    read the password from the first line of stdin (for scripts)
  --password PASSWORD the password on the command line (visible to other users of this machine; avoid)
  --db PATH           the SQLite database file (default: DATABASE_URL, RATH_DB_PATH or .rath/studio.db)
  -h, --help          show this help

Exit codes: 0 created, 1 an account with that email exists, 2 usage error or invalid value.
`;

class UsageError extends Error {}

interface CreateArguments {
  email: string | undefined;
  name: string | undefined;
  password: string | undefined;
  passwordStdin: boolean;
  databasePath: string | undefined;
}

/** Parses the arguments with `node:util` parseArgs, as the other `rath` commands do (`--name=a=b` keeps `a=b`). */
function parseArguments(args: readonly string[]): CreateArguments | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h", default: false },
        email: { type: "string" },
        name: { type: "string" },
        password: { type: "string" },
        "password-stdin": { type: "boolean", default: false },
        db: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) return "help";
  if (values.password !== undefined && values["password-stdin"]) throw new UsageError("give the password with --password or --password-stdin, not both");
  return { email: values.email, name: values.name, password: values.password, passwordStdin: values["password-stdin"], databasePath: values.db };
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

async function ask(question: string): Promise<string> {
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await readline.question(question);
  } finally {
    readline.close();
  }
}

/** Reads a line from the terminal without echoing it (raw mode; Backspace edits, Ctrl-C aborts). */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    let typed = "";
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    const finish = (error: Error | null): void => {
      input.setRawMode(false);
      input.pause();
      input.removeListener("data", onData);
      process.stderr.write("\n");
      if (error === null) resolve(typed);
      else reject(error);
    };
    const onData = (text: string): void => {
      for (const character of text) {
        if (character === "\r" || character === "\n") return finish(null);
        if (character === "\u0003") return finish(new UsageError("cancelled"));
        if (character === "\u007f" || character === "\b") typed = typed.slice(0, -1);
        else if (character >= " ") typed += character;
      }
    };
    input.on("data", onData);
  });
}

async function completeArguments(options: CreateArguments): Promise<{ email: string; name: string; password: string }> {
  const interactive = process.stdin.isTTY === true;
  let password = options.password;
  if (options.passwordStdin) {
    password = (await readAllStdin()).split(/\r?\n/, 1)[0] ?? "";
    if (password === "") throw new UsageError("--password-stdin read an empty password");
  }
  const missing = [options.email === undefined ? "--email" : null, options.name === undefined ? "--name" : null, password === undefined ? "--password-stdin" : null].filter(
    (flag): flag is string => flag !== null,
  );
  if (missing.length > 0 && !interactive) {
    throw new UsageError(`stdin is not a terminal, so nothing can be asked: give ${missing.join(", ")}`);
  }
  const email = options.email ?? (await ask("Email: "));
  const name = options.name ?? (await ask("Name: "));
  if (password === undefined) {
    password = await askHidden("Password (at least 8 characters): ");
    const again = await askHidden("Password again: ");
    if (again !== password) throw new UsageError("the two passwords differ; nothing was created");
  }
  return { email, name, password };
}

async function create(args: readonly string[]): Promise<number> {
  let options: CreateArguments | "help";
  let account: { email: string; name: string; password: string };
  try {
    options = parseArguments(args);
    if (options === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    if (options.password !== undefined) process.stderr.write("rath user create: warning: --password is visible to other users of this machine; prefer --password-stdin\n");
    account = await completeArguments(options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`rath user create: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  let database: Database | undefined;
  try {
    database = await openDatabase(options.databasePath === undefined ? {} : { url: `file:${path.resolve(options.databasePath)}` });
    const created = await createAccount(database, account);
    process.stdout.write(`created account ${created.email} (${created.name}); sign in at /sign-in\n`);
    return 0;
  } catch (error) {
    if (!isRathError(error) || !error.isUserError) throw error;
    process.stderr.write(`rath user create: ${error.message}\n`);
    return error.code === "conflict" ? 1 : 2;
  } finally {
    await database?.close();
  }
}

/** The `rath user` entry point; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "create") return create(rest);
  if (subcommand === "-h" || subcommand === "--help" || subcommand === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  process.stderr.write(`rath user: ${subcommand === undefined ? "expected a subcommand" : `unknown subcommand '${subcommand}'`}\n\n${USAGE}`);
  return 2;
}
