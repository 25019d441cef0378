"use client";
/**
 * The header's account corner: the signed-in person's name (a link to their settings and API keys) and a Sign
 * out button. Nothing on a loopback studio used without an account. Sign-out ends the session on the server and
 * loads /sign-in.
 */
import { useQuery } from "@tanstack/react-query";
import { LogOut, UserRound } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { postJson } from "./post-json";

/** Who is signed in, and the way out. */
export function AccountMenu() {
  const trpc = useTRPC();
  const me = useQuery({ ...trpc.account.me.queryOptions(), retry: false, staleTime: 60_000 });
  const [pending, setPending] = useState(false);
  const user = me.data?.user ?? null;
  if (me.data?.kind !== "user" || user === null) return null;

  async function signOut(): Promise<void> {
    setPending(true);
    await postJson("/api/auth/sign-out", {});
    window.location.assign("/sign-in");
  }

  return (
    <div className="flex min-w-0 items-center gap-1" data-testid="account-menu">
      <Link
        href="/settings#api-keys"
        className="flex max-w-48 min-w-0 items-center gap-1.5 rounded-md px-1.5 py-1 text-xs text-muted hover:bg-raised hover:text-ink"
        title={`${user.email} — account settings and API keys`}
        aria-label={`Signed in as ${user.name}; account settings`}
        data-testid="account-name"
      >
        <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
        <span className="hidden truncate sm:inline">{user.name}</span>
      </Link>
      <Button variant="ghost" size="sm" icon={LogOut} onClick={() => void signOut()} disabled={pending} aria-label={`Sign out ${user.email}`} title="Sign out" data-testid="sign-out">
        <span className="hidden sm:inline">Sign out</span>
      </Button>
    </div>
  );
}
