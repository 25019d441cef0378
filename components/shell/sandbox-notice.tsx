"use client";
/**
 * A slim strip under the header, on every page, while the server runs tools on the `local` backend (chosen with
 * RATH_SANDBOX_BACKEND=local, or because bwrap is unavailable): code tools and shell / file built-ins then run as
 * the server's user with no confinement. It cannot be dismissed: it goes away when the server runs tools in bwrap.
 */
import { useQuery } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { usePathname } from "next/navigation";
import { useTRPC } from "../trpc/trpc-context";
import { isSharePage } from "./nav-items";

/** Renders nothing while loading, on error, when tools are confined, or on a share page (not its reader's concern). */
export function SandboxNotice() {
  const trpc = useTRPC();
  const sharePage = isSharePage(usePathname());
  const info = useQuery({ ...trpc.system.info.queryOptions(), staleTime: Infinity, retry: false, enabled: !sharePage });
  if (sharePage || !info.data || info.data.confined) return null;
  return (
    <div
      role="status"
      data-testid="sandbox-notice"
      title={info.data.summary}
      className="flex items-start gap-2 border-b border-status-waiting/40 bg-raised px-3 py-1.5 text-xs text-ink sm:items-center sm:px-4"
    >
      <ShieldAlert aria-hidden="true" className="mt-px size-3.5 shrink-0 text-status-waiting sm:mt-0" />
      <p className="min-w-0 break-words">
        <span className="font-medium text-status-waiting">Tools run unconfined.</span>{" "}
        <span className="text-muted">
          Code, shell and file tools run as this server&apos;s user, without a sandbox
          {info.data.requested === "local" ? (
            <>
              {" "}
              (<code className="font-mono">RATH_SANDBOX_BACKEND=local</code>). Unset it to use bwrap.
            </>
          ) : (
            <> (bubblewrap is unavailable here). Install it and restart the studio.</>
          )}
        </span>
      </p>
    </div>
  );
}
