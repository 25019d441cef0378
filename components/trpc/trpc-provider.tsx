"use client";
/**
 * Creates one QueryClient and one tRPC client per browser tab and provides both to the pages below. A share page
 * mounts a second one inside, on its link's endpoint (`/api/share/<token>/trpc`), so the run view below it calls
 * the API as the link and nothing else.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "../../server/api/root";
import { TRPCProvider } from "./trpc-context";

const ENDPOINT = "/api/trpc";

/**
 * Queries whose input can be too long for a URL (a 300-node spec): sent as POST with tRPC's method override
 * (the server allows it; a POST passes the same cross-site and content-type door as any mutation).
 */
const POST_QUERIES: ReadonlySet<string> = new Set(["workflows.validate"]);

/** Wraps the app: queries and mutations over batched HTTP, subscriptions over server-sent events. */
export function TrpcQueryProvider({ children, endpoint = ENDPOINT }: { children: ReactNode; endpoint?: string }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 1000, retry: 1 } } }));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (operation) => operation.type === "subscription",
          true: httpSubscriptionLink({ url: endpoint }),
          false: splitLink({
            condition: (operation) => operation.type === "query" && POST_QUERIES.has(operation.path),
            true: httpLink({ url: endpoint, methodOverride: "POST" }),
            false: httpBatchLink({ url: endpoint }),
          }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
