/** Serves the tRPC router over the Fetch API (queries, mutations, and subscriptions as server-sent events). */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "../root";
import type { ApiContext } from "../trpc";

/** Where the Next.js route mounts tRPC. */
export const TRPC_ENDPOINT = "/api/trpc";

/** Handles one tRPC request with the given context factory. */
export function handleTrpcRequest(request: Request, createContext: () => Promise<ApiContext>, endpoint: string = TRPC_ENDPOINT): Promise<Response> {
  return fetchRequestHandler({ endpoint, req: request, router: appRouter, createContext });
}
