"use client";
/**
 * The /runs filters, kept in the URL (run-filters.ts): read from the search parameters, written back with
 * `router.replace` (no history entry per keystroke, no scroll jump). Without `inUrl` (the home page) they are
 * plain state. The filters just chosen are shown until the URL catches up: `router.replace` lands later, and a
 * second change made meanwhile (status cleared, then a workflow picked) must build on the first, not on the URL.
 */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { NO_RUN_FILTERS, parseRunFilters, runFiltersQuery, type RunFilters } from "./run-filters";

/** The filters and a setter. */
export function useRunFilters(inUrl: boolean): [RunFilters, (next: RunFilters) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [local, setLocal] = useState<RunFilters>(NO_RUN_FILTERS);
  const [pending, setPending] = useState<RunFilters | null>(null);
  const fromUrl = useMemo(() => parseRunFilters(params), [params]);
  useEffect(() => {
    if (pending !== null && runFiltersQuery(pending) === runFiltersQuery(fromUrl)) setPending(null);
  }, [pending, fromUrl]);
  const set = useCallback(
    (next: RunFilters) => {
      if (inUrl) {
        setPending(next);
        router.replace(`${pathname}${runFiltersQuery(next)}`, { scroll: false });
      } else setLocal(next);
    },
    [inUrl, pathname, router],
  );
  return [inUrl ? (pending ?? fromUrl) : local, set];
}
