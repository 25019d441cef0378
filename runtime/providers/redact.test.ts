import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("replaces secret-named properties at any depth and leaves usage counts alone", () => {
    const input = {
      headers: { Authorization: "Bearer abc.def", "x-api-key": "key-123456", "content-type": "application/json" },
      config: { providers: { openai: { apiKey: "whatever-1234", apiKeyEnv: "OPENAI_API_KEY", model: "gpt" } } },
      env: { OPENAI_API_KEY: "sk-live-value-123456", HOME: "/root" },
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      list: [{ password: "hunter22" }],
    };
    expect(redactSecrets(input)).toEqual({
      headers: { Authorization: REDACTED, "x-api-key": REDACTED, "content-type": "application/json" },
      config: { providers: { openai: { apiKey: REDACTED, apiKeyEnv: "OPENAI_API_KEY", model: "gpt" } } },
      env: { OPENAI_API_KEY: REDACTED, HOME: "/root" },
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      list: [{ password: REDACTED }],
    });
    expect(input.headers.Authorization).toBe("Bearer abc.def");
  });

  it("replaces bearer tokens, sk- keys and header assignments inside text", () => {
    expect(redactSecrets("curl -H 'Authorization: Bearer eyJhbGciOi.payload.sig' https://x")).toBe(`curl -H 'Authorization: Bearer ${REDACTED}' https://x`);
    expect(redactSecrets("Incorrect API key provided: sk-proj-AbCdEf0123456789.")).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(redactSecrets('{"x-api-key":"anthropic-secret-value"}')).toBe(`{"x-api-key":"${REDACTED}"}`);
    expect(redactSecrets("api_key=abcdef123 next")).toBe(`api_key=${REDACTED} next`);
    expect(redactSecrets("nothing secret here: 42 tokens")).toBe("nothing secret here: 42 tokens");
  });

  it("removes exact secrets given by the caller, wherever they appear", () => {
    const secret = "custom-token-without-prefix";
    expect(redactSecrets({ note: `the key ${secret} leaked`, nested: [secret] }, { secrets: [secret] })).toEqual({
      note: `the key ${REDACTED} leaked`,
      nested: [REDACTED],
    });
  });

  it("copies errors as name and redacted message, and survives cycles", () => {
    const cyclic: Record<string, unknown> = { token: "Bearer abcdef" };
    cyclic.self = cyclic;
    const copy = redactSecrets(cyclic);
    expect(copy.token).toBe(`Bearer ${REDACTED}`);
    expect(copy.self).toBe(copy);
    expect(redactSecrets({ error: new Error("failed with sk-abcdefghijkl") })).toEqual({ error: { name: "Error", message: `failed with ${REDACTED}` } });
  });

  it("passes non-secret scalars through", () => {
    expect(redactSecrets(5)).toBe(5);
    expect(redactSecrets(null)).toBeNull();
    expect(redactSecrets([true, "plain"])).toEqual([true, "plain"]);
  });
});
