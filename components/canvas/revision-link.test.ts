import { describe, expect, it } from "vitest";
import { canvasNodeHref, parseRevisionLink } from "./revision-link";

describe("revision links", () => {
  it("writes the revision id and node id, and reads them back", () => {
    const href = canvasNodeHref("wf_1", "rev_9", "agent 1&x");
    expect(href).toBe("/workflows/wf_1?revision=rev_9&node=agent+1%26x");
    expect(parseRevisionLink(new URL(href, "http://studio.test").search)).toEqual({ revisionId: "rev_9", nodeId: "agent 1&x" });
  });

  it("treats missing or blank values as absent", () => {
    expect(parseRevisionLink("")).toEqual({ revisionId: null, nodeId: null });
    expect(parseRevisionLink("?node=writer")).toEqual({ revisionId: null, nodeId: "writer" });
    expect(parseRevisionLink("?revision=%20&node=")).toEqual({ revisionId: null, nodeId: null });
  });
});
