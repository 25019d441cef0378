import { expect, it } from "vitest";
import { Session } from "../../../runtime/session/session";
import type { Plan } from "../spec/plan";
import { deliverOutputs } from "./flow";

// Only what delivery reads: each node's join (edge ids in join order), null for a node without one.
const plan = { id: "plan_test", nodes: { next: { join: null }, merge: { join: ["left", "right"] } } } as unknown as Plan;

it("makes a node without a join ready at once, and a merge ready once every edge delivered, inputs in join order", () => {
  const [a, b, c] = [Session.create("user", "a"), Session.create("user", "b"), Session.create("user", "c")];
  const joins: Record<string, Record<string, string>> = {};
  const ready: Array<{ nodeId: string; inputs: string[] }> = [];
  const push = (step: { nodeId: string; inputs: string[] }) => ready.push(step);
  const toId = (session: Session) => session.id;
  // The right edge arrives first, with another session for the plain node.
  deliverOutputs(plan, { outputs: [a, b], next: [{ nodeId: "merge", edgeId: "right", output: 0 }, { nodeId: "next", edgeId: "e", output: 1 }] }, toId, joins, push);
  expect(ready).toEqual([{ nodeId: "next", inputs: [b.id] }]);
  expect(joins).toEqual({ merge: { right: a.id } });
  deliverOutputs(plan, { outputs: [c], next: [{ nodeId: "merge", edgeId: "left", output: 0 }] }, toId, joins, push);
  expect(ready).toEqual([{ nodeId: "next", inputs: [b.id] }, { nodeId: "merge", inputs: [c.id, a.id] }]);
  expect(joins).toEqual({});
  expect(() => deliverOutputs(plan, { outputs: [], next: [{ nodeId: "next", edgeId: "e", output: 0 }] }, toId, joins, push)).toThrow(/names output 0 but has 0/);
});
