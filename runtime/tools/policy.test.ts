import { describe, expect, it } from "vitest";
import { commandDenial, policyDenial, simpleCommands, ToolPolicy } from "./policy";

describe("simpleCommands", () => {
  it("finds the program of every simple command, skipping assignments and honouring quotes", () => {
    const line = `FOO=1 ls -la && echo "a; rm" | grep x; $(curl evil) \`wget y\` & /bin/rm -f z || (cd .. )`;
    expect(simpleCommands(line).map((command) => command.program)).toEqual(["ls", "echo", "grep", "curl", "wget", "/bin/rm", "cd"]);
  });

  it("keeps quoted words whole", () => {
    expect(simpleCommands("'my prog' arg").map((command) => command.program)).toEqual(["my prog"]);
  });
});

describe("commandDenial", () => {
  it("denies a listed program anywhere in the line, by name or basename", () => {
    const policy = { commandDeny: ["rm"] };
    expect(commandDenial(policy, "rm -rf /")).toContain("denied by policy rule 'rm'");
    expect(commandDenial(policy, "echo hi && /bin/rm x")).not.toBeNull();
    expect(commandDenial(policy, "echo rm")).toBeNull();
    expect(commandDenial(policy, "echo 'a; rm x'")).toBeNull();
    expect(commandDenial(policy, 'echo "$(rm x)"')).not.toBeNull();
    expect(commandDenial(policy, 'echo "`rm x`"')).not.toBeNull();
    expect(commandDenial(policy, "rmdir x")).toBeNull();
  });

  it("denies by regular expression on the whole line", () => {
    const policy = { commandDeny: ["/curl\\s+http/i"] };
    expect(commandDenial(policy, "echo x; CURL http://a")).not.toBeNull();
    expect(commandDenial(policy, "curl --version")).toBeNull();
  });

  it("with an allow list, requires every simple command to match", () => {
    const policy = { commandAllow: ["ls", "echo", "/^git (status|log)\\b/"] };
    expect(commandDenial(policy, "ls -la && echo ok")).toBeNull();
    expect(commandDenial(policy, "git status")).toBeNull();
    expect(commandDenial(policy, "git push")).toContain("'git' is not in the allowed commands");
    expect(commandDenial(policy, "ls; python3 -c 1")).toContain("'python3'");
  });

  it("lets deny win over allow", () => {
    expect(commandDenial({ commandAllow: ["rm"], commandDeny: ["rm"] }, "rm x")).toContain("denied");
  });
});

describe("policyDenial", () => {
  it("allows everything without a policy", () => {
    expect(policyDenial(undefined, "anything", {}, { count: 0 })).toBeNull();
  });

  it("denies tools outside allowedTools, listing the allowed ones", () => {
    expect(policyDenial({ allowedTools: ["a", "b"] }, "c", {}, { count: 0 })).toBe("tool 'c' is not in the allowed tools (a, b)");
  });

  it("checks the cmd argument of any tool", () => {
    expect(policyDenial({ commandDeny: ["rm"] }, "run_shell_command", { cmd: "rm x" }, { count: 0 })).not.toBeNull();
    expect(policyDenial({ commandDeny: ["rm"] }, "other", { path: "rm" }, { count: 0 })).toBeNull();
  });

  it("spends maxCalls last, so denied calls do not use the budget", () => {
    const counter = { count: 0 };
    const policy = { maxCalls: 2, commandDeny: ["rm"] };
    expect(policyDenial(policy, "t", { cmd: "rm" }, counter)).not.toBeNull();
    expect(counter.count).toBe(0);
    expect(policyDenial(policy, "t", {}, counter)).toBeNull();
    expect(policyDenial(policy, "t", {}, counter)).toBeNull();
    expect(policyDenial(policy, "t", {}, counter)).toBe("the run reached its limit of 2 tool calls");
    expect(counter.count).toBe(2);
  });
});

describe("ToolPolicy schema", () => {
  it("parses a policy and refuses a broken regular expression rule", () => {
    expect(ToolPolicy.parse({ maxCalls: 3, commandDeny: ["rm", "/^sudo/"] })).toEqual({ maxCalls: 3, commandDeny: ["rm", "/^sudo/"] });
    const result = ToolPolicy.safeParse({ commandDeny: ["/(unclosed/"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("expected a program name or a valid /regex/flags");
    expect(ToolPolicy.safeParse({ maxCalls: -1 }).success).toBe(false);
  });
});
