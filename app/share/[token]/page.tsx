/**
 * A shared run (`/share/<token>`): the run view read-only, for anyone holding a live link — no sign-in needed
 * (server/auth/page-access.ts lets the path through; the token is the credential). The run view's API calls go to
 * `/api/share/<token>/trpc`, where the server allows only this run's reads. An unknown, revoked or expired token
 * is a plain 404. Pages are `noindex`, send no referrer (the URL holds the token), and carry Open Graph tags so
 * the link previews well in chat apps.
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { parseUrlSelection } from "../../../components/run/run-selection-url";
import { RunView } from "../../../components/run/run-view";
import { TrpcQueryProvider } from "../../../components/trpc/trpc-provider";
import { shareTrpcEndpoint } from "../../../server/api/http/share-trpc";
import { verifyShareToken } from "../../../server/auth/share-links";
import { sharedRuntime } from "../../../server/services/shared-runtime";
import { loadRunPage, type RunPageData } from "../../_data/run-page";

export const dynamic = "force-dynamic";

interface SharePageProps {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

const PRIVATE_PAGE = { robots: { index: false, follow: false, nocache: true }, referrer: "no-referrer" } satisfies Metadata;

async function sharedRun(token: string): Promise<(RunPageData & { runId: string }) | null> {
  const { database } = await sharedRuntime();
  const link = await verifyShareToken(database, token);
  if (link === null) return null;
  const page = await loadRunPage(database, link.runId);
  return page === null ? null : { ...page, runId: link.runId };
}

/** noindex, no referrer, and an Open Graph title and description naming the workflow and the run's status. */
export async function generateMetadata({ params }: SharePageProps): Promise<Metadata> {
  const { token } = await params;
  const page = await sharedRun(token);
  if (page === null) return { ...PRIVATE_PAGE, title: "Link not found" };
  const status = page.detail.run.status.replaceAll("_", " ");
  const title = `${page.workflowName} · ${status}`;
  const description = `A ${status} run of “${page.workflowName}” shared read-only from Rath Studio: its session graph, chunks, evidence and timeline.`;
  return { ...PRIVATE_PAGE, title, description, openGraph: { title, description, type: "website", siteName: "Rath Studio" }, twitter: { card: "summary", title, description } };
}

/** The shared run. */
export default async function SharePage({ params, searchParams }: SharePageProps) {
  const [{ token }, search] = await Promise.all([params, searchParams]);
  const page = await sharedRun(token);
  if (page === null) notFound();
  return (
    <TrpcQueryProvider endpoint={shareTrpcEndpoint(token)}>
      <RunView
        runId={page.runId}
        initial={page.detail}
        workflowName={page.workflowName}
        revisionNumber={page.revisionNumber}
        labels={page.labels}
        usesDemoProvider={page.usesDemoProvider}
        initialSelection={parseUrlSelection(search)}
        readOnly
      />
    </TrpcQueryProvider>
  );
}
