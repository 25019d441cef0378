import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "../../components/auth/auth-card";
import { SignInForm } from "../../components/auth/sign-in-form";
import { signInPageState } from "../../server/auth/auth-pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

/** Sign in with email and password; a signed-in visitor goes straight to `next`. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const state = await signInPageState(await headers(), typeof next === "string" ? next : undefined);
  if (state.signedIn) redirect(state.next);
  const description = state.signInRequired ? "This studio needs you to sign in." : "Sign in to manage your API keys.";
  return (
    <AuthCard title="Sign in to Rath Studio" description={description} testId="sign-in-page">
      {state.hasAccounts ? (
        <SignInForm next={state.next} />
      ) : (
        <div className="flex flex-col gap-3 text-sm text-muted" data-testid="sign-in-no-accounts">
          <p>This studio has no account yet.</p>
          {state.setupAvailable ? (
            <Link href="/setup" className="font-medium text-accent underline-offset-2 hover:underline" data-testid="sign-in-setup-link">
              Create the first account
            </Link>
          ) : null}
          <p>
            On the machine running the studio, you can also run <code className="rounded bg-sunken px-1 py-0.5 font-mono text-xs text-ink">npx rath user create</code>.
          </p>
        </div>
      )}
    </AuthCard>
  );
}
