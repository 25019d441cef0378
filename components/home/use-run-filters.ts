"use client";
/**
 * The /runs filters, kept in the URL (run-filters.ts): read from the search parameters, written back with
 * `router.replace` (no history entry per keystroke, no scroll jump). Without `inUrl` (the home page) they are
 * plain state.
 */
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { NO_RUN_FILTERS, parseRunFilters, runFiltersQuery, type RunFilters } from "./run-filters";

/** The filters and a setter. */
export function useRunFilters(inUrl: boolean): [RunFilters, (next: RunFilters) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [local, setLocal] = useState<RunFilters>(NO_RUN_FILTERS);
  const fromUrl = useMemo(() => parseRunFilters(params), [params]);
  const set = useCallback(
    (next: RunFilters) => {
      if (inUrl) router.replace(`${pathname}${runFiltersQuery(next)}`, { scroll: false });
      else setLocal(next);
    },
    [inUrl, pathname, router],
  );
  return [inUrl ? fromUrl : local, set];
}
