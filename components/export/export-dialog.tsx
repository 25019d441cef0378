"use client";
/**
 * The run's Export dialog: three downloads, each read from the server when asked (tRPC `transfer.exportRun`,
 * `transfer.exportTrace`) — the Rath run bundle (one JSONL file; it opens again through the home page's drop zone),
 * the Python reference implementation's files (one persisted-session file per session, dialect 1, and the run's
 * lineage export; listed with one download each, or all in one .tar), and the run as OpenTelemetry traces (OTLP/JSON).
 * Secrets never reach them: the store keeps `[REDACTED]` in place of every configured key.
 */
import { useState } from "react";
import type { RouterOutputs } from "../trpc/router-types";
import { useTRPCClient } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { downloadFile } from "../ui/download";
import { ExportOption, ReferenceFiles, type ExportedFile } from "./export-parts";
import { tarArchive } from "./tar-archive";

type ReferenceExport = Extract<RouterOutputs["transfer"]["exportRun"], { dialect: "reference" }>;
type Busy = "bundle" | "reference" | "trace" | null;

const JSONL = "application/x-ndjson";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : "the studio did not answer; try again";
}

/** Props: the run, and whether the dialog is open. */
export interface ExportDialogProps {
  runId: string;
  open: boolean;
  onClose: () => void;
}

/** The dialog. */
export function ExportDialog({ runId, open, onClose }: ExportDialogProps) {
  const client = useTRPCClient();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [reference, setReference] = useState<ReferenceExport | null>(null);

  async function run(kind: Exclude<Busy, null>, task: () => Promise<void>): Promise<void> {
    setBusy(kind);
    setError(null);
    try {
      await task();
    } catch (caught) {
      setError(`Could not export: ${messageOf(caught)}`);
    } finally {
      setBusy(null);
    }
  }

  const bundle = () =>
    run("bundle", async () => {
      const exported = await client.transfer.exportRun.query({ runId, dialect: "rath" });
      if (exported.dialect === "rath") downloadFile(exported.bundle.name, exported.bundle.content, JSONL);
    });
  const prepareReference = () =>
    run("reference", async () => {
      const exported = await client.transfer.exportRun.query({ runId, dialect: "reference" });
      if (exported.dialect === "reference") setReference(exported);
    });
  const trace = () =>
    run("trace", async () => {
      const exported = await client.transfer.exportTrace.query({ runId });
      downloadFile(`run-${runId}-trace.json`, `${JSON.stringify(exported, null, 2)}\n`);
    });
  const save = (file: ExportedFile) => downloadFile(file.name, file.content, JSONL);
  const saveAll = (files: readonly ExportedFile[]) => downloadFile(`run-${runId}-reference.tar`, tarArchive(`run-${runId}-reference`, files), "application/x-tar");

  return (
    <Dialog open={open} onClose={onClose} title="Export run" description="Download this run as files. Keys and other secrets are never in them." testId="export-dialog" footer={<Button onClick={onClose}>Close</Button>}>
      <div className="flex flex-col gap-3">
        {error !== null ? (
          <p role="alert" data-testid="export-error" className="text-sm text-status-failed">
            {error}
          </p>
        ) : null}
        <ExportOption
          title="Rath run bundle"
          testId="export-bundle"
          action={busy === "bundle" ? "Exporting…" : "Download bundle"}
          disabled={busy !== null}
          onAction={() => void bundle()}
        >
          One <code className="font-mono text-xs">.jsonl</code> file with the run&apos;s sessions, chunks, lineage and events. Drop it on the home page of any Rath Studio to open it again.
        </ExportOption>
        <ExportOption
          title="Reference session files and lineage"
          testId="export-reference"
          action={busy === "reference" ? "Preparing…" : reference === null ? "Prepare files" : "Prepare again"}
          disabled={busy !== null}
          onAction={() => void prepareReference()}
        >
          What the Python reference implementation (<code className="font-mono text-xs">openrath</code>) reads: one persisted-session file per session and the run&apos;s lineage export.
          {reference !== null ? <ReferenceFiles sessions={reference.sessions} lineage={reference.lineage} onSave={save} onSaveAll={saveAll} /> : null}
        </ExportOption>
        <ExportOption
          title="OpenTelemetry trace"
          testId="export-trace"
          action={busy === "trace" ? "Exporting…" : "Download trace"}
          disabled={busy !== null}
          onAction={() => void trace()}
        >
          OTLP/JSON spans following the GenAI conventions (the run, each node, model and tool call), for any OpenTelemetry backend.
        </ExportOption>
      </div>
    </Dialog>
  );
}
