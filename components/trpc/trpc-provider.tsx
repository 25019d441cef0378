"use client";
/**
 * Creates one QueryClient and one tRPC client per browser tab and provides both to the pages below. A share page
 * mounts a second one inside, on its link's endpoint (`/api/share/<token>/trpc`), so the run view below it calls
 * the API as the link and nothing else.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "../../server/api/root";
import { TRPCProvider } from "./trpc-context";

const ENDPOINT = "/api/trpc";

/** Wraps the app: queries and mutations over batched HTTP, subscriptions over server-sent events. */
export function TrpcQueryProvider({ children, endpoint = ENDPOINT }: { children: ReactNode; endpoint?: string }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 1000, retry: 1 } } }));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (operation) => operation.type === "subscription",
          true: httpSubscriptionLink({ url: endpoint }),
          false: httpBatchLink({ url: endpoint }),
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
