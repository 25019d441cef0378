/**
 * A deterministic scripted provider for engine tests, driven by the agent's instructions so that any process
 * (a crashed worker and the one that finishes its run) answers alike: instructions of the form
 * `TEST {json directive}` say which tool to call once, how long to wait, what usage to report and how many
 * requests to fail first. Tool call ids derive from the instructions, so they are the same in every process.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ModelRequest } from "../../../runtime/providers/types";
import { createScriptedProvider, makeUsage, type ScriptedProvider, type ScriptedStep } from "../../../runtime/testing/scripted-provider";

/** What an agent's `TEST {...}` instructions ask the test provider to do. */
export const TestDirective = z.object({
  /** Name shown in the reply. */
  name: z.string().default("agent"),
  /** A tool to call once (after the last user message) before answering. */
  tool: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }).optional(),
  /** Delay before the final answer (ms). */
  delayMs: z.number().int().nonnegative().optional(),
  /** Delay before the tool call (ms). */
  toolDelayMs: z.number().int().nonnegative().optional(),
  /** Prompt and completion tokens reported per response. */
  usage: z.tuple([z.number().int(), z.number().int()]).optional(),
  /** Fail the first N requests of this agent (per provider instance). */
  failTimes: z.number().int().nonnegative().optional(),
});
export type TestDirective = z.input<typeof TestDirective>;

/** The instructions text that carries a directive. */
export function testInstructions(directive: TestDirective): string {
  return `TEST ${JSON.stringify(directive)}`;
}

/** The directive a system message carries (`TEST {...}`; any other text directs nothing). */
export function directiveOfSystem(system: string): z.infer<typeof TestDirective> {
  const json: unknown = system.startsWith("TEST ") ? JSON.parse(system.slice(5)) : {};
  return TestDirective.parse(json);
}

function directiveOf(request: ModelRequest): { directive: z.infer<typeof TestDirective>; system: string } {
  const system = request.messages.find((message) => message.role === "system")?.content ?? "";
  return { directive: directiveOfSystem(system), system };
}

/** Creates the test provider (named "scripted"). */
export function createTestProvider(): ScriptedProvider {
  const failures = new Map<string, number>();
  return createScriptedProvider({
    name: "scripted",
    model: "scripted-test",
    steps: (request): ScriptedStep => {
      const { directive, system } = directiveOf(request);
      const usage = directive.usage ? makeUsage(directive.usage[0], directive.usage[1]) : null;
      const failed = failures.get(system) ?? 0;
      if (directive.failTimes !== undefined && failed < directive.failTimes) {
        failures.set(system, failed + 1);
        return { error: `scripted failure ${failed + 1} of ${directive.failTimes}` };
      }
      const messages = request.messages;
      let lastUser = -1;
      messages.forEach((message, index) => {
        if (message.role === "user") lastUser = index;
      });
      const userText = lastUser >= 0 ? String(messages[lastUser]?.content ?? "") : "";
      const toolsSince = messages.slice(lastUser + 1).filter((message) => message.role === "tool");
      if (directive.tool && toolsSince.length === 0) {
        const id = `call_${createHash("sha256").update(system).digest("hex").slice(0, 12)}`;
        return { toolCalls: [{ id, name: directive.tool.name, arguments: directive.tool.arguments }], usage, ...(directive.toolDelayMs ? { delayMs: directive.toolDelayMs } : {}) };
      }
      const toolNote = toolsSince.length > 0 ? ` (tool said ${toolsSince.at(-1)?.content.slice(0, 60)})` : "";
      return { content: `${directive.name} answers: ${userText}${toolNote}`, usage, ...(directive.delayMs ? { delayMs: directive.delayMs } : {}) };
    },
  });
}
