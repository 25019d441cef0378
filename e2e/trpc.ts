/** tRPC calls over HTTP through a Playwright request context (the page's, so a signed-in page's cookies go along). */
import { expect, type APIRequestContext } from "@playwright/test";

async function dataOf<T>(path: string, response: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> {
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

/** Calls a tRPC query (HTTP GET) and returns its data; a failed call fails the test with the status and body. */
export async function trpcQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  return dataOf<T>(path, await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`));
}

/** Calls a tRPC mutation (HTTP POST, JSON) and returns its data; a failed call fails the test with the status and body. */
export async function trpcMutation<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  return dataOf<T>(path, await request.post(`/api/trpc/${path}`, { data: input, headers: { "content-type": "application/json" } }));
}
