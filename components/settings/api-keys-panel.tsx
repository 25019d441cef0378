"use client";
/**
 * API keys of the signed-in person (tRPC `account.apiKeys.*`): create one with a name and copy it from the one
 * place it is ever shown, see each key's prefix, creation and last use, revoke one after confirming. Someone who
 * is not signed in (the local user of a loopback studio) is asked to sign in: keys belong to accounts.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, KeyRound, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import type { RouterOutputs } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { Button, buttonClasses } from "../ui/button";
import { copyText } from "../ui/copy-text";
import { Dialog } from "../ui/dialog";
import { EmptyState } from "../ui/empty-state";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { formatTime } from "../ui/format";

type ApiKeyRow = RouterOutputs["account"]["apiKeys"]["list"][number];

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "the studio did not answer; try again";
}

/** The key just created, shown once with a Copy button until the person dismisses it. */
function NewKeyNotice({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const keyText = useRef<HTMLElement>(null);
  // Without a clipboard API (a plain-HTTP studio on a LAN address) the key is selected so Ctrl/Cmd+C copies it.
  const copy = () => void copyText(secret, keyText.current).then(setCopied);
  return (
    <div role="status" className="flex flex-col gap-2 rounded-md border border-accent/40 bg-accent-soft p-3" data-testid="api-key-created">
      <p className="text-sm font-medium break-words text-ink">Copy the key “{name}” now: it is not shown again.</p>
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row sm:items-center">
        <code ref={keyText} className="min-w-0 flex-1 rounded border border-line bg-surface px-2 py-1.5 font-mono text-xs break-all text-ink select-all" data-testid="api-key-secret">
          {secret}
        </code>
        <div className="flex shrink-0 gap-2">
          <Button size="sm" icon={copied ? Check : Copy} onClick={copy} data-testid="api-key-copy">
            {copied ? "Copied" : "Copy"}
          </Button>
          <Button size="sm" variant="ghost" onClick={onDone} data-testid="api-key-done">
            Done
          </Button>
        </div>
      </div>
      <p className="text-xs text-muted">
        Send it as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> to the HTTP API or tRPC.
      </p>
    </div>
  );
}

/** One key in the list. */
function KeyItem({ apiKey, onRevoke }: { apiKey: ApiKeyRow; onRevoke: (apiKey: ApiKeyRow) => void }) {
  return (
    <li className="flex flex-col gap-2 px-3 py-2.5 sm:flex-row sm:items-center sm:gap-4" data-testid="api-key-row" data-key-id={apiKey.id}>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-ink" title={apiKey.name} data-testid="api-key-name">
          {apiKey.name}
        </p>
        <p className="font-mono text-xs text-muted">{apiKey.prefix}…</p>
      </div>
      <dl className="grid shrink-0 grid-cols-[auto_1fr] gap-x-2 text-xs text-muted tabular sm:w-64">
        <dt className="text-faint">Created</dt>
        <dd>{formatTime(apiKey.createdAt)}</dd>
        <dt className="text-faint">Last used</dt>
        <dd data-testid="api-key-last-used">{apiKey.lastUsedAt === null ? "never" : formatTime(apiKey.lastUsedAt)}</dd>
      </dl>
      <Button size="sm" variant="danger" icon={Trash2} onClick={() => onRevoke(apiKey)} aria-label={`Revoke key ${apiKey.name}`} data-testid="api-key-revoke" className="self-start sm:self-center">
        Revoke
      </Button>
    </li>
  );
}

/** The create form, the key just made, the list and the revoke confirmation. */
function ApiKeysManager() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.account.apiKeys.list.queryOptions());
  const [name, setName] = useState("");
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.account.apiKeys.list.queryKey() });
  const create = useMutation(
    trpc.account.apiKeys.create.mutationOptions({
      onSuccess: (result) => {
        setCreated({ name: result.apiKey.name, secret: result.key });
        setName("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.account.apiKeys.revoke.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        void refresh();
      },
    }),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (name.trim() === "") return;
    setCreated(null);
    create.mutate({ name });
  };
  const createError = create.error === null ? null : messageOf(create.error);

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end" data-testid="api-key-create-form">
        <Field id="api-key-name" label="New key name" error={createError} className="flex-1">
          <input
            id="api-key-name"
            value={name}
            maxLength={100}
            placeholder="e.g. nightly import script"
            onChange={(event) => setName(event.target.value)}
            className={inputClasses(createError !== null)}
            aria-invalid={createError !== null}
            aria-describedby={fieldDescribedBy("api-key-name", false, createError !== null)}
            data-testid="api-key-name-input"
          />
        </Field>
        <Button type="submit" variant="primary" icon={Plus} disabled={name.trim() === "" || create.isPending} data-testid="api-key-create">
          {create.isPending ? "Creating…" : "Create key"}
        </Button>
      </form>
      {created ? <NewKeyNotice name={created.name} secret={created.secret} onDone={() => setCreated(null)} /> : null}
      {keys.isError ? (
        <p role="alert" className="text-sm text-status-failed">
          Could not load your keys: {messageOf(keys.error)}
        </p>
      ) : keys.data === undefined ? (
        <p className="text-sm text-muted">Loading keys…</p>
      ) : keys.data.length === 0 ? (
        <EmptyState icon={KeyRound} title="No API keys yet" testId="api-keys-empty">
          Name a key above for each script or machine, so you can revoke one without touching the others.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-line rounded-md border border-line" data-testid="api-keys-list">
          {keys.data.map((apiKey) => (
            <KeyItem key={apiKey.id} apiKey={apiKey} onRevoke={setRevoking} />
          ))}
        </ul>
      )}
      <Dialog
        open={revoking !== null}
        onClose={() => {
          setRevoking(null);
          revoke.reset();
        }}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description="Scripts using this key are refused (401) from now on. This cannot be undone."
        size="sm"
        testId="api-key-revoke-dialog"
        footer={
          <>
            <Button onClick={() => setRevoking(null)}>Cancel</Button>
            <Button variant="danger" icon={Trash2} disabled={revoke.isPending} onClick={() => revoking && revoke.mutate({ keyId: revoking.id })} data-testid="api-key-revoke-confirm">
              {revoke.isPending ? "Revoking…" : "Revoke key"}
            </Button>
          </>
        }
      >
        {revoke.error ? (
          <p role="alert" className="text-status-failed">
            {messageOf(revoke.error)}
          </p>
        ) : (
          <p className="font-mono text-xs text-muted">{revoking?.prefix}…</p>
        )}
      </Dialog>
    </div>
  );
}

/** The API keys section of the settings page. */
export function ApiKeysPanel() {
  const trpc = useTRPC();
  const me = useQuery({ ...trpc.account.me.queryOptions(), retry: false });
  return (
    <section aria-labelledby="api-keys-heading" className="rounded-lg border border-line bg-surface p-4 sm:p-5" data-testid="api-keys-panel" id="api-keys">
      <h2 id="api-keys-heading" className="text-base font-semibold text-ink">
        API keys
      </h2>
      <p className="mt-1 mb-4 text-sm text-muted">Scripts call the studio&apos;s HTTP API with a key of yours. Each key acts as you; revoke it when the script no longer needs it.</p>
      {me.data === undefined ? (
        <p className="text-sm text-muted">{me.isError ? messageOf(me.error) : "Loading…"}</p>
      ) : me.data.kind === "user" ? (
        <ApiKeysManager />
      ) : (
        <div className="flex flex-col items-start gap-3 text-sm text-muted" data-testid="api-keys-sign-in">
          <p>API keys belong to accounts. Sign in to create or revoke yours.</p>
          <Link href="/sign-in?next=%2Fsettings" className={buttonClasses("secondary")}>
            Sign in
          </Link>
        </div>
      )}
    </section>
  );
}
