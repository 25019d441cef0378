import { z } from "zod";

const REGEX_RULE = /^\/(.+)\/([a-z]*)$/s;

function compiles(rule: string): boolean {
  const match = REGEX_RULE.exec(rule);
  if (!match) return true;
  try {
    new RegExp(match[1] ?? "", match[2]);
    return true;
  } catch {
    return false;
  }
}

/** A command rule: a program name, or a regular expression written `/pattern/flags`. */
export const CommandRule = z.string().min(1).refine(compiles, { message: "expected a program name or a valid /regex/flags" });
export type CommandRule = z.infer<typeof CommandRule>;

/**
 * What a run's tool calls may reach. Every field is optional; an absent field does not restrict.
 * - `allowedTools`: tool names that may be called (others are denied, and hidden from `unknown_tool` lists).
 * - `filesystemRoots`: host directories that file tools may reach besides the workspace (the workspace is
 *   always allowed; anything else, reached by `..`, an absolute path or a symlink, is denied).
 * - `commandAllow` / `commandDeny`: rules for the `cmd` argument of a call. A plain word matches the first
 *   word of every simple command in the line (split on `;`, `&&`, `||`, `|`, `&`, newlines, `$(`, backticks)
 *   or that word's basename (`rm` matches `/bin/rm`); a rule written `/pattern/flags` is a regular
 *   expression (a deny regex is tested against the whole line and each simple command, an allow regex against
 *   each simple command). Deny wins; with an allow list every simple command must match some rule.
 *   These lists are a guard rail, not isolation: use the bwrap backend to contain what commands can do.
 * - `maxCalls`: calls allowed per run, counted across rounds in the counter the caller passes.
 */
export const ToolPolicy = z.object({
  allowedTools: z.array(z.string()).optional(),
  filesystemRoots: z.array(z.string()).optional(),
  commandAllow: z.array(CommandRule).optional(),
  commandDeny: z.array(CommandRule).optional(),
  maxCalls: z.number().int().nonnegative().optional(),
});
export type ToolPolicy = z.infer<typeof ToolPolicy>;

/** The running count of tool calls of a run; dispatch increments it for each call the policy lets through. */
export interface CallCounter {
  count: number;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SEPARATORS = ["&&", "||", "$(", ";", "|", "&", "`", "(", ")", "\n", "\r"];
const SUBSTITUTIONS = ["$(", "`"];

/** One simple command of a shell line: its text and its program name (leading `VAR=value` skipped). */
export interface SimpleCommand {
  readonly text: string;
  readonly program: string;
}

/**
 * The simple commands of a shell line, split outside quotes on `;`, `&&`, `||`, `|`, `&`, newlines, `$(`,
 * backticks and parentheses (inside double quotes on `$(` and backticks, which still run); words honour
 * single and double quotes and backslash escapes.
 */
export function simpleCommands(line: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let text = "";
  let quote: "'" | '"' | null = null;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    const program = words.find((candidate) => !ASSIGNMENT.test(candidate));
    if (program !== undefined) commands.push({ text: text.trim(), program });
    words = [];
    text = "";
  };
  let index = 0;
  while (index < line.length) {
    const character = line[index] ?? "";
    // Command substitution runs even inside double quotes, so `$(` and backticks split there too.
    const candidates = quote === "'" ? [] : quote === '"' ? SUBSTITUTIONS : SEPARATORS;
    const separator = candidates.find((candidate) => line.startsWith(candidate, index));
    if (separator) {
      quote = null;
      endCommand();
      index += separator.length;
      continue;
    }
    text += character;
    if (quote) {
      if (character === quote) quote = null;
      else word += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
    } else if (character === "\\" && index + 1 < line.length) {
      index += 1;
      word += line[index] ?? "";
      text += line[index] ?? "";
      inWord = true;
    } else if (/\s/.test(character)) {
      endWord();
    } else {
      word += character;
      inWord = true;
    }
    index += 1;
  }
  endCommand();
  return commands;
}

function wordMatches(rule: string, program: string): boolean {
  return program === rule || program.split("/").pop() === rule;
}

function regexOf(rule: string): RegExp | null {
  const match = REGEX_RULE.exec(rule);
  return match ? new RegExp(match[1] ?? "", (match[2] ?? "").replace(/[gy]/g, "")) : null;
}

/** Why the policy refuses this command line, or null when it may run. */
export function commandDenial(policy: ToolPolicy, line: string): string | null {
  const commands = simpleCommands(line);
  for (const rule of policy.commandDeny ?? []) {
    const regex = regexOf(rule);
    const hit = regex
      ? regex.test(line) || commands.some((command) => regex.test(command.text))
      : commands.some((command) => wordMatches(rule, command.program));
    if (hit) return `command '${line}' is denied by policy rule '${rule}'`;
  }
  if (policy.commandAllow) {
    for (const command of commands) {
      const allowed = policy.commandAllow.some((rule) => {
        const regex = regexOf(rule);
        return regex ? regex.test(command.text) : wordMatches(rule, command.program);
      });
      if (!allowed) return `command '${command.program}' is not in the allowed commands (${policy.commandAllow.join(", ")})`;
    }
  }
  return null;
}

/**
 * Why the policy refuses a call, or null when it may run. The call budget is spent last, so a call denied
 * on other grounds does not use it up. Path confinement is enforced by the sandbox handle itself.
 */
export function policyDenial(policy: ToolPolicy | undefined, tool: string, args: unknown, counter: CallCounter): string | null {
  if (!policy) return null;
  if (policy.allowedTools && !policy.allowedTools.includes(tool)) {
    return `tool '${tool}' is not in the allowed tools (${policy.allowedTools.join(", ") || "none"})`;
  }
  const command = typeof args === "object" && args !== null ? (args as Record<string, unknown>).cmd : undefined;
  if (typeof command === "string") {
    const denial = commandDenial(policy, command);
    if (denial) return denial;
  }
  if (policy.maxCalls !== undefined) {
    if (counter.count >= policy.maxCalls) return `the run reached its limit of ${policy.maxCalls} tool calls`;
    counter.count += 1;
  }
  return null;
}
