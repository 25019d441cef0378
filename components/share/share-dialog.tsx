"use client";
/**
 * The run's share dialog (tRPC `shareLinks.*`): make a read-only link with an expiry (never, 1 day, 7 days,
 * 30 days) and copy it — the link is shown once, only its hash is kept — then the run's live links, each with
 * when it was made and when it expires, revocable after a confirmation. Whoever opens a link sees this run's
 * graph, chunks and evidence and nothing else (server/auth/principal.ts).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, Link2, Plus, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import type { RouterOutputs } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { copyText } from "../ui/copy-text";
import { Dialog } from "../ui/dialog";
import { inputClasses } from "../ui/field";
import { formatTime } from "../ui/format";

type ShareLinkRow = RouterOutputs["shareLinks"]["list"][number];
type Expiry = "never" | "1d" | "7d" | "30d";

const EXPIRIES: { value: Expiry; label: string }[] = [
  { value: "7d", label: "7 days" },
  { value: "1d", label: "1 day" },
  { value: "30d", label: "30 days" },
  { value: "never", label: "Never (until revoked)" },
];

/** The page a token opens. */
export function shareUrlOf(token: string): string {
  return `${window.location.origin}/share/${token}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "the studio did not answer; try again";
}

/** The link just made, with Copy, until the dialog closes or another is made. */
function NewLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const text = useRef<HTMLElement>(null);
  return (
    <div role="status" className="flex flex-col gap-2 rounded-md border border-accent/40 bg-accent-soft p-3" data-testid="share-link-created">
      <p className="text-sm font-medium text-ink">Copy the link now: it is not shown again.</p>
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
        <code ref={text} className="min-w-0 flex-1 rounded border border-line bg-surface px-2 py-1.5 font-mono text-xs break-all text-ink select-all" data-testid="share-link-url">
          {url}
        </code>
        <Button size="sm" variant="primary" icon={copied ? Check : Copy} onClick={() => void copyText(url, text.current).then(setCopied)} data-testid="share-link-copy" className="self-start sm:self-auto">
          {copied ? "Copied" : "Copy link"}
        </Button>
      </div>
    </div>
  );
}

function LinkItem({ link, onRevoke, confirming, pending }: { link: ShareLinkRow; onRevoke: (confirmed: boolean) => void; confirming: boolean; pending: boolean }) {
  return (
    <li className="flex min-w-0 flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:gap-3" data-testid="share-link-row" data-link-id={link.id}>
      <Link2 className="hidden size-4 shrink-0 text-faint sm:block" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="truncate font-mono text-xs text-ink" title="The link's first characters">
          /share/{link.prefix}…
        </p>
        <p className="text-xs text-muted tabular">
          made {formatTime(link.createdAt)} · <span data-testid="share-link-expires">{link.expiresAt === null ? "never expires" : `expires ${formatTime(link.expiresAt)}`}</span>
        </p>
      </div>
      {confirming ? (
        <div className="flex shrink-0 items-center gap-1.5 self-start sm:self-center">
          <Button size="sm" variant="ghost" onClick={() => onRevoke(false)}>
            Keep
          </Button>
          <Button size="sm" variant="danger" icon={Trash2} disabled={pending} onClick={() => onRevoke(true)} data-testid="share-link-revoke-confirm">
            {pending ? "Revoking…" : "Revoke now"}
          </Button>
        </div>
      ) : (
        <Button size="sm" variant="danger" icon={Trash2} onClick={() => onRevoke(false)} aria-label={`Revoke link ${link.prefix}…`} data-testid="share-link-revoke" className="self-start sm:self-center">
          Revoke
        </Button>
      )}
    </li>
  );
}

/** Props: the run and whether the dialog is open. */
export function ShareDialog({ runId, open, onClose }: { runId: string; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const links = useQuery({ ...trpc.shareLinks.list.queryOptions({ runId }), enabled: open });
  const [expiry, setExpiry] = useState<Expiry>("7d");
  const [created, setCreated] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.shareLinks.list.queryKey({ runId }) });
  const create = useMutation(
    trpc.shareLinks.create.mutationOptions({
      onSuccess: (result) => {
        setCreated(shareUrlOf(result.token));
        void refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.shareLinks.revoke.mutationOptions({
      onSuccess: () => {
        setConfirming(null);
        toast.success("Link revoked: it now opens a “not found” page");
        void refresh();
      },
      onError: (error) => toast.error(`Could not revoke the link: ${error.message}`),
    }),
  );
  const close = () => {
    setCreated(null);
    setConfirming(null);
    create.reset();
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Share this run"
      description="Anyone with the link sees this run read-only — its graph, chunks, evidence and timeline — without signing in. They cannot start, fork or cancel runs, decide approvals, or see settings and other runs."
      testId="share-dialog"
    >
      <div className="flex flex-col gap-4">
        <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor="share-expiry" className="text-xs font-medium text-muted">
              Link expires after
            </label>
            <select id="share-expiry" value={expiry} onChange={(event) => setExpiry(event.target.value as Expiry)} className={inputClasses()} data-testid="share-expiry">
              {EXPIRIES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <Button variant="primary" icon={Plus} disabled={create.isPending} onClick={() => create.mutate({ runId, expiry })} data-testid="share-link-create">
            {create.isPending ? "Creating…" : "Create link"}
          </Button>
        </div>
        {create.error ? (
          <p role="alert" className="text-sm text-status-failed">
            Could not create a link: {messageOf(create.error)}
          </p>
        ) : null}
        {created !== null ? <NewLink url={created} /> : null}
        <section aria-labelledby="share-links-heading" className="flex flex-col gap-2">
          <h3 id="share-links-heading" className="text-xs font-semibold tracking-wide text-muted uppercase">
            Links to this run
          </h3>
          {links.isError ? (
            <p role="alert" className="text-sm text-status-failed">
              Could not load the links: {messageOf(links.error)}
            </p>
          ) : links.data === undefined ? (
            <p className="text-sm text-muted">Loading links…</p>
          ) : links.data.length === 0 ? (
            <p className="rounded-md border border-dashed border-line px-3 py-3 text-sm text-muted" data-testid="share-links-empty">
              No links yet. Create one above; each can be revoked on its own.
            </p>
          ) : (
            <ul className="divide-y divide-line rounded-md border border-line" data-testid="share-links-list">
              {links.data.map((link) => (
                <LinkItem
                  key={link.id}
                  link={link}
                  confirming={confirming === link.id}
                  pending={revoke.isPending}
                  onRevoke={(confirmed) => {
                    if (!confirmed) return setConfirming(confirming === link.id ? null : link.id);
                    revoke.mutate({ runId, linkId: link.id });
                  }}
                />
              ))}
            </ul>
          )}
        </section>
      </div>
    </Dialog>
  );
}
