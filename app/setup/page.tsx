import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AuthCard } from "../../components/auth/auth-card";
import { SetupForm } from "../../components/auth/setup-form";
import { setupPageAvailable } from "../../server/auth/auth-pages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "First account" };

/** The first-run page: only on a loopback studio while it has no account (otherwise 404). */
export default async function SetupPage() {
  if (!(await setupPageAvailable())) notFound();
  return (
    <AuthCard title="Create the first account" description="You are on the machine running this studio. This account signs in when the studio needs it and owns API keys." testId="setup-page">
      <SetupForm />
    </AuthCard>
  );
}
