"use client";
/** Re-renders the server page every `intervalMs` while `active` (runs in progress), so statuses stay current. */
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Renders nothing; refreshes the route's server components on an interval while `active` is true. */
export function AutoRefresh({ active, intervalMs = 2000 }: { active: boolean; intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => router.refresh(), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, router]);
  return null;
}
