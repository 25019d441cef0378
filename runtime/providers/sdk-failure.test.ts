import { APIConnectionError as AnthropicConnectionError, APIError as AnthropicAPIError } from "@anthropic-ai/sdk";
import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { describe, expect, it } from "vitest";
import { describeAnthropicError } from "./anthropic-provider";
import { describeOpenAIError } from "./openai-provider";

describe("describeSdkError through both adapters", () => {
  it("reads status, the server's message and Retry-After from an HTTP error", () => {
    const error = APIError.generate(429, { error: { message: "slow down" } }, undefined, new Headers({ "retry-after-ms": "250" }));
    expect(describeOpenAIError(error)).toEqual({ status: 429, connection: false, aborted: false, message: "slow down", retryAfterMs: 250 });
  });

  it("prefixes Anthropic messages with the error type and judges status-less stream errors by type", () => {
    const http = AnthropicAPIError.generate(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, undefined, new Headers());
    expect(describeAnthropicError(http)).toEqual({ status: 529, connection: false, aborted: false, message: "overloaded_error: Overloaded" });
    // The SDK throws an `error` event inside a stream as an APIError without a status.
    const streamed = new AnthropicAPIError(undefined, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, undefined, new Headers(), "overloaded_error");
    expect(describeAnthropicError(streamed)).toEqual({ connection: false, aborted: false, retryable: true, message: "overloaded_error: Overloaded" });
    const invalid = new AnthropicAPIError(undefined, { type: "error", error: { type: "invalid_request_error", message: "bad" } }, undefined, new Headers(), "invalid_request_error");
    expect(describeAnthropicError(invalid)).toMatchObject({ retryable: false });
  });

  it("tells user aborts, connection errors, DOM aborts and other errors apart", () => {
    expect(describeOpenAIError(new APIUserAbortError())).toEqual({ connection: false, aborted: true, message: "aborted" });
    expect(describeOpenAIError(new APIConnectionError({ message: "refused" }))).toEqual({ connection: true, aborted: false, message: "refused" });
    expect(describeAnthropicError(new AnthropicConnectionError({ message: "reset" }))).toEqual({ connection: true, aborted: false, message: "reset" });
    const domAbort = new Error("stop");
    domAbort.name = "AbortError";
    expect(describeAnthropicError(domAbort)).toEqual({ connection: false, aborted: true, message: "aborted" });
    expect(describeOpenAIError(new TypeError("boom"))).toEqual({ connection: false, aborted: false, retryable: false, message: "boom" });
    expect(describeOpenAIError("text")).toEqual({ connection: false, aborted: false, retryable: false, message: "text" });
  });
});
