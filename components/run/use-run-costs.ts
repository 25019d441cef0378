"use client";
/**
 * What the run page needs for costs: the price table (`settings.modelPrices.list`) and each session's own usage by
 * model (`sessions.usageByModel`). While the run is live, the usage is read again after new events arrive (at most
 * once every few seconds, and once more when the stream ends), never on a timer of its own.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTRPC } from "../trpc/trpc-context";
import type { ModelPrice, UsageByModel } from "./run-costs";

/** Prices and usage, or null while either is loading. */
export interface RunCostInputs {
  usage: UsageByModel;
  prices: readonly ModelPrice[];
}

const REREAD_MS = 3000;

/**
 * Follows the costs of `runId`; `lastSeq` is the last event applied (a change means new chunks may have usage).
 * Nothing is read before `ready` (the graph is there): the usage scan would otherwise share the graph's request.
 */
export function useRunCosts(runId: string, lastSeq: number, live: boolean, ready: boolean): RunCostInputs | null {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prices = useQuery(trpc.settings.modelPrices.list.queryOptions(undefined, { staleTime: 60_000, enabled: ready }));
  const usage = useQuery(trpc.sessions.usageByModel.queryOptions({ runId }, { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, enabled: ready }));
  const lastRead = useRef({ seq: lastSeq, at: 0 });
  const timer = useRef<number | null>(null);

  useEffect(() => {
    if (!ready || lastSeq === lastRead.current.seq) return;
    const reread = (): void => {
      timer.current = null;
      lastRead.current = { seq: lastSeq, at: Date.now() };
      void queryClient.invalidateQueries({ queryKey: trpc.sessions.usageByModel.queryKey({ runId }) });
    };
    if (timer.current !== null) return;
    const wait = live ? Math.max(0, lastRead.current.at + REREAD_MS - Date.now()) : 0;
    timer.current = window.setTimeout(reread, wait);
  }, [lastSeq, live, ready, queryClient, trpc, runId]);
  useEffect(
    () => () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
    },
    [],
  );

  if (prices.data === undefined || usage.data === undefined) return null;
  return { usage: usage.data.sessions, prices: prices.data };
}
