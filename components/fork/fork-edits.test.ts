import { describe, expect, it } from "vitest";
import { buildForkEdits, pickRevision, type ForkDefaults, type ForkDraft } from "./fork-edits";

const revisions = [
  { id: "rev_2", current: false },
  { id: "rev_1", current: true },
];
/** The preview of revision 2 (picked): its editor prompt and model. */
const picked: ForkDefaults = { input: "the launch", nextAgent: { instructions: "Editor v2", model: "large" }, toolResults: [], revisions };
const empty: ForkDraft = { input: null, instructions: null, model: null, toolResults: {}, revisionId: null };

describe("fork edits with another revision picked", () => {
  it("picking a revision drops a prompt or model typed for the previous one and keeps the rest", () => {
    const typed: ForkDraft = { ...empty, input: "other input", instructions: "Editor v1 edited", model: "small", toolResults: { 3: "{}" } };
    expect(pickRevision(typed, "rev_2")).toEqual({ input: "other input", instructions: null, model: null, toolResults: { 3: "{}" }, revisionId: "rev_2" });
  });

  it("an untouched prompt of the picked revision sends only the revision; an edit is compared with the picked revision's values", () => {
    const draft = pickRevision(empty, "rev_2");
    expect(buildForkEdits(picked, draft)).toEqual({ revisionId: "rev_2" });
    expect(buildForkEdits(picked, { ...draft, instructions: "Editor v2", model: "large" })).toEqual({ revisionId: "rev_2" });
    expect(buildForkEdits(picked, { ...draft, instructions: "Editor v2, shorter" })).toEqual({ revisionId: "rev_2", agent: { instructions: "Editor v2, shorter" } });
    // Choosing the run's own revision again is no edit.
    expect(buildForkEdits(picked, pickRevision(empty, "rev_1"))).toEqual({});
  });
});
