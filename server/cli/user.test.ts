/**
 * `rath user create` spawned as a process: creates an account from flags and `--password-stdin` without ever
 * printing the password, refuses a taken email (exit 1), bad values and missing flags without a terminal (exit 2).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signInWithPassword } from "../auth/accounts";
import { openDatabase } from "../db/database";
import { cliHarness } from "./testing/cli-harness";

const { directory, rath } = cliHarness("user", "rath-cli-user-");

describe("rath user create", () => {
  const database = path.join(directory, "studio.db");
  const PASSWORD = "s3cret-Passphrase";

  // Each spawn loads tsx and the CLI (seconds on a busy machine).
  it("creates an account that can sign in; the password appears nowhere in the output", { timeout: 120_000 }, async () => {
    const created = rath(["create", "--email", "Ada@Example.com", "--name", "Ada Lovelace", "--password-stdin", "--db", database], `${PASSWORD}\n`);
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    expect(created.stdout).toBe("created account ada@example.com (Ada Lovelace); sign in at /sign-in\n");
    expect(created.stdout + created.stderr).not.toContain(PASSWORD);
    const opened = await openDatabase({ url: `file:${database}` });
    try {
      expect((await signInWithPassword(opened, { email: "ada@example.com", password: PASSWORD })).user.name).toBe("Ada Lovelace");
    } finally {
      await opened.close();
    }
  });

  it("refuses a taken email with exit 1, and bad values or missing flags with exit 2, naming what is wrong", { timeout: 180_000 }, () => {
    const taken = rath(["create", "--email", "ada@example.com", "--name", "Other", "--password-stdin", "--db", database], "another-password\n");
    expect(taken).toMatchObject({ status: 1, stderr: "rath user create: an account with email ada@example.com already exists\n" });
    const short = rath(["create", "--email", "b@example.com", "--name", "B", "--password-stdin", "--db", database], "short\n");
    expect(short.status).toBe(2);
    expect(short.stderr).toContain("password must be at least 8 characters");
    expect(short.stderr).not.toContain("short\n");
    const missing = rath(["create", "--email", "c@example.com", "--db", database]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("stdin is not a terminal, so nothing can be asked: give --name, --password-stdin");
    const bogus = rath(["create", "--bogus"]);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toContain("Unknown option '--bogus'");
    const unknown = rath(["delete"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown subcommand 'delete'");
  });
});
