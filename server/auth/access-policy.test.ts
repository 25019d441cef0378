import { describe, expect, it } from "vitest";
import { accessPolicyFromEnvironment, isLoopbackHost } from "./access-policy";

describe("access policy", () => {
  it("needs no sign-in on a loopback address, and serves only loopback host names there", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"]) {
      const policy = accessPolicyFromEnvironment({ RATH_HOST: host });
      expect(policy, host).toMatchObject({ boundHost: host, loopback: true, signInRequired: false });
      expect([...(policy.allowedHostnames ?? [])].sort()).toEqual(["127.0.0.1", "[::1]", "localhost"]);
    }
  });

  it("requires sign-in on every other address, and when the address is unknown (plain `next start`)", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "studio.example.com", "127.0.0.256"]) {
      const policy = accessPolicyFromEnvironment({ RATH_HOST: host });
      expect(policy, host).toMatchObject({ loopback: false, signInRequired: true, allowedHostnames: null });
    }
    const unknown = accessPolicyFromEnvironment({});
    expect(unknown).toMatchObject({ boundHost: null, loopback: false, signInRequired: true });
    expect(unknown.summary).toContain("RATH_HOST is not set");
  });

  it("RATH_AUTH=required forces sign-in on loopback; other values are refused by name", () => {
    const forced = accessPolicyFromEnvironment({ RATH_HOST: "127.0.0.1", RATH_AUTH: "required" });
    expect(forced).toMatchObject({ loopback: true, signInRequired: true });
    expect(forced.summary).toContain("RATH_AUTH=required");
    expect(accessPolicyFromEnvironment({ RATH_HOST: "127.0.0.1", RATH_AUTH: "auto" }).signInRequired).toBe(false);
    expect(() => accessPolicyFromEnvironment({ RATH_HOST: "0.0.0.0", RATH_AUTH: "off" })).toThrow(/RATH_AUTH must be "required" or "auto".*"off"/);
  });

  it("forwarded headers cannot make an exposed studio look local: the policy reads only the process environment", () => {
    const exposed = accessPolicyFromEnvironment({ RATH_HOST: "0.0.0.0", X_FORWARDED_FOR: "127.0.0.1", HTTP_X_FORWARDED_FOR: "127.0.0.1" });
    expect(exposed.signInRequired).toBe(true);
  });

  it("RATH_ALLOWED_HOSTS adds names (and restricts an exposed studio to them); malformed entries are refused", () => {
    const local = accessPolicyFromEnvironment({ RATH_HOST: "127.0.0.1", RATH_ALLOWED_HOSTS: "studio.internal, Box.Local" });
    expect(local.allowedHostnames?.has("studio.internal")).toBe(true);
    expect(local.allowedHostnames?.has("box.local")).toBe(true);
    const exposed = accessPolicyFromEnvironment({ RATH_HOST: "0.0.0.0", RATH_ALLOWED_HOSTS: "studio.example.com" });
    expect([...(exposed.allowedHostnames ?? [])]).toEqual(["studio.example.com"]);
    expect(() => accessPolicyFromEnvironment({ RATH_HOST: "0.0.0.0", RATH_ALLOWED_HOSTS: "https://studio.example.com" })).toThrow(/RATH_ALLOWED_HOSTS.*https/);
  });

  it("recognises loopback addresses exactly", () => {
    expect(["127.0.0.1", "127.255.255.254", "::1", "[::1]", "LOCALHOST"].every(isLoopbackHost)).toBe(true);
    expect(["0.0.0.0", "128.0.0.1", "127.0.0.1.evil.com", "localhost.evil.com", "::", ""].some(isLoopbackHost)).toBe(false);
  });
});
