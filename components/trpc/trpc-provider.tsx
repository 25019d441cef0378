"use client";
/** Creates one QueryClient and one tRPC client per browser tab and provides both to the pages below. */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "../../server/api/root";
import { TRPCProvider } from "./trpc-context";

const ENDPOINT = "/api/trpc";

/** Wraps the app: queries and mutations over batched HTTP, subscriptions over server-sent events. */
export function TrpcQueryProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 1000, retry: 1 } } }));
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (operation) => operation.type === "subscription",
          true: httpSubscriptionLink({ url: ENDPOINT }),
          false: httpBatchLink({ url: ENDPOINT }),
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
