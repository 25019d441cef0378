import { describe, expect, it } from "vitest";
import { createSignInThrottle } from "./sign-in-throttle";

describe("sign-in throttle", () => {
  it("locks an email out after the limit of failures in the window, and lets it in again as they age out", () => {
    let clock = 1_000_000;
    const throttle = createSignInThrottle({ limit: 3, windowMs: 10 * 60_000, now: () => clock });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(() => throttle.check("ada@example.com")).not.toThrow();
      throttle.failed("ada@example.com");
      clock += 60_000;
    }
    expect(() => throttle.check("ada@example.com")).toThrow("too many failed sign-ins for ada@example.com; try again in 7 minutes");
    expect(() => throttle.check("grace@example.com")).not.toThrow();
    clock += 8 * 60_000;
    expect(() => throttle.check("ada@example.com")).not.toThrow();
  });

  it("a successful sign-in clears the failures", () => {
    const throttle = createSignInThrottle({ limit: 2, windowMs: 60_000, now: () => 0 });
    throttle.failed("ada@example.com");
    throttle.succeeded("ada@example.com");
    throttle.failed("ada@example.com");
    expect(() => throttle.check("ada@example.com")).not.toThrow();
  });
});
