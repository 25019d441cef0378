import { describe, expect, it } from "vitest";
import { isSecretKey, stripSecrets } from "./secrets";

describe("isSecretKey", () => {
  it("recognises secret names in any casing style", () => {
    for (const key of ["api_key", "apiKey", "x-api-key", "OPENAI_API_KEY", "Authorization", "GITHUB_TOKEN", "access_token", "client_secret", "db.password", "Cookie", "credentials"]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });
  it("keeps usage counters and ordinary names", () => {
    for (const key of ["max_tokens", "prompt_tokens", "total_tokens", "keyboard", "monkey", "LANG", "PATH", "resource_key", "source"]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
  it("strips nested secret keys from plain objects and arrays", () => {
    expect(stripSecrets({ headers: { Authorization: "Bearer x", accept: "json" }, list: [{ token: "t", n: 1 }] })).toEqual({
      headers: { accept: "json" },
      list: [{ n: 1 }],
    });
  });
});
