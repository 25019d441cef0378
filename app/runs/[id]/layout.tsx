/**
 * The run route's frame: it checks that the run exists before anything streams. The page below is wrapped in
 * loading.tsx's Suspense boundary, and once streaming starts the status line is already sent (200); this layout
 * renders outside that boundary, so an unknown run answers a real HTTP 404 (app/runs/not-found.tsx).
 */
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { isRathError } from "../../../runtime/errors";
import { requireRun } from "../../../server/services/run-service";
import { sharedRuntime } from "../../../server/services/shared-runtime";

export const dynamic = "force-dynamic";

export default async function RunLayout({ params, children }: { params: Promise<{ id: string }>; children: ReactNode }) {
  const { id } = await params;
  const { database } = await sharedRuntime();
  try {
    await requireRun(database, id);
  } catch (error) {
    if (isRathError(error, "not_found")) notFound();
    throw error;
  }
  return children;
}
