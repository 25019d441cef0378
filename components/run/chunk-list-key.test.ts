import { describe, expect, it } from "vitest";
import { chunkListKey, type ChunkListKey } from "./chunk-list-key";

/** The keys given to a sequence of (following, session) renders. */
function keys(renders: Array<[boolean, string]>): string[] {
  let previous: ChunkListKey | null = null;
  return renders.map(([following, sessionId]) => {
    previous = chunkListKey(previous, following, sessionId);
    return previous.key;
  });
}

describe("chunkListKey", () => {
  it("keeps one key while following a live run's newest session, step after step", () => {
    expect(keys([[true, "a"], [true, "b"], [true, "c"]])).toEqual(["following", "following", "following"]);
  });

  it("keeps the list mounted when a chunk of the followed session is chosen (the focused row keeps its focus)", () => {
    expect(keys([[true, "a"], [false, "a"], [false, "a"]])).toEqual(["following", "following", "following"]);
  });

  it("mounts a new list when another session is shown, and again when following resumes", () => {
    expect(keys([[true, "a"], [false, "a"], [false, "b"], [false, "a"], [true, "c"]])).toEqual(["following", "following", "b", "a", "following"]);
  });

  it("a session chosen from the start (a link) has its own key", () => {
    expect(keys([[false, "a"], [false, "a"]])).toEqual(["a", "a"]);
  });
});
