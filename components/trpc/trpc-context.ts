"use client";
/** The tRPC + TanStack Query bindings of the IDE: `useTRPC()` gives typed query / mutation options. */
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../server/api/root";

/** The provider (mounted once in the root layout) and the hook that reads its options proxy. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
