/**
 * 11 · A Selector drives control flow: it asks the model which candidate workflow should run next (or none,
 * -1, to stop). Your code writes the `if` and the `while`; the Selector only decides. Each decision is a
 * `route` chunk in the session, so branches and loop iterations show up in the lineage graph.
 * (`loop(name, { selector })` from the runtime packages the same while loop as a Workflow.)
 *
 *   npx tsx examples/11-selector.ts
 */
import { Agent, Selector, SELECTOR_MENU_HEADER, Session, type ModelRequest, type ScriptedStep } from "../runtime";
import { describeModel, exampleModel } from "./shared/provider";
import { printSession } from "./shared/print";

const routingReplies = ["0", "0", "2", "-1"];
const agentReplies: Record<string, string> = {
  billing: "The duplicate charge is refunded; it shows within 5 days.",
  tech: "Run the installer as administrator; the error 0x80070005 goes away.",
  wrapup: "Summary: install fixed by running as administrator.",
};
/** Offline: routing questions get the next scripted choice, agents a canned answer for their role. */
function offline(request: ModelRequest): ScriptedStep {
  const last = request.messages.at(-1);
  if (last?.role === "user" && last.content.startsWith(SELECTOR_MENU_HEADER)) return { content: routingReplies.shift() ?? "-1" };
  const role = Object.keys(agentReplies).find((key) => request.messages[0]?.content?.includes(`[${key}]`)) ?? "wrapup";
  return { content: agentReplies[role] };
}
const model = exampleModel(offline);
console.log(describeModel(model));

const billing = new Agent({ name: "billing", instructions: "[billing] You handle billing questions. Be brief.", provider: model.provider });
const tech = new Agent({ name: "tech", instructions: "[tech] You solve technical problems. Be brief.", provider: model.provider });
const wrapup = new Agent({ name: "wrapup", instructions: "[wrapup] You write a one-line closing summary.", provider: model.provider });
const candidate = (agent: Agent, description: string) => ({ name: agent.name, description, workflow: agent });

console.log("--- if: route to at most one branch");
const triage = new Selector({
  name: "triage",
  provider: model.provider,
  candidates: [candidate(billing, "Billing, invoices, refunds, payment methods"), candidate(tech, "Installation, errors, configuration")],
});
const question = Session.create("user", "My last invoice was charged twice.");
const decision = await triage.decide(question);
let answered = question;
if (decision.chosen >= 0) {
  console.log(`routed to: ${triage.candidates[decision.chosen]?.name}`);
  answered = await decision.workflow.forward(decision.session);
}
printSession("if", answered);

console.log("--- while: route until the selector says -1 (done)");
const router = new Selector({
  name: "router",
  provider: model.provider,
  candidates: [
    candidate(tech, "Installation, errors, configuration, troubleshooting"),
    candidate(billing, "Billing, invoices, refunds"),
    candidate(wrapup, "Wrap up with a final summary once the problem is solved"),
  ],
});
let session = Session.create("user", "I got error 0x80070005 installing; then I want a summary.");
const visited: string[] = [];
for (let round = 1; round <= 4; round++) {
  const next = await router.decide(session);
  session = next.session;
  if (next.chosen < 0) break;
  const name = router.candidates[next.chosen]?.name ?? "?";
  console.log(`round ${round} -> ${name}`);
  visited.push(name);
  session = await next.workflow.forward(session);
}
printSession("while", session);
const routes = session.chunks.toArray().filter((chunk) => chunk.kind === "route");
console.log(`ok: if=${triage.candidates[decision.chosen]?.name ?? "none"} while=${visited.join(">")} route_chunks=${routes.length}`);
