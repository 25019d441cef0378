"use client";
/**
 * Opens run files as a read-only run (tRPC `transfer.importFiles`): a Rath run bundle, or what the Python reference
 * implementation writes — persisted sessions (`.jsonl`), crashed partial files (`.jsonl.__partial__`), lineage
 * exports. Files can be dropped anywhere on the page (an overlay says where they go) or on the zone, or chosen with
 * the button (keyboard). The server parses every file before storing anything: a malformed file comes back as an
 * error naming the file and line, shown here, and nothing is stored. Success opens the new run.
 */
import { useMutation } from "@tanstack/react-query";
import { FileUp, FileWarning, FolderOpen } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from "react";
import { toast } from "sonner";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";

function hasFiles(event: { dataTransfer: DataTransfer | null }): boolean {
  return event.dataTransfer?.types.includes("Files") ?? false;
}

async function readFiles(list: FileList | readonly File[]): Promise<Array<{ name: string; content: string }>> {
  return Promise.all(Array.from(list).map(async (file) => ({ name: file.name, content: await file.text() })));
}

/** The drop zone, its file picker and the page-wide drop overlay. */
export function RunFileDrop() {
  const trpc = useTRPC();
  const router = useRouter();
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [failure, setFailure] = useState<{ files: string[]; message: string } | null>(null);
  const importFiles = useMutation(trpc.transfer.importFiles.mutationOptions());

  async function open(list: FileList | readonly File[]): Promise<void> {
    if (list.length === 0 || importFiles.isPending) return;
    setFailure(null);
    const files = await readFiles(list);
    try {
      const imported = await importFiles.mutateAsync({ files });
      toast.success(`Opened ${files.length === 1 ? (files[0]?.name ?? "the file") : `${files.length} files`} as a read-only run (${imported.sessionCount} session${imported.sessionCount === 1 ? "" : "s"})`);
      router.push(`/runs/${imported.runId}`);
    } catch (error) {
      setFailure({ files: files.map((file) => file.name), message: error instanceof Error ? error.message : String(error) });
    }
  }

  // Files dropped anywhere on the page come here; the overlay shows while they are dragged over it.
  useEffect(() => {
    let depth = 0;
    const enter = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const leave = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const over = (event: globalThis.DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    const drop = (event: globalThis.DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      if (event.dataTransfer !== null) void open(event.dataTransfer.files);
    };
    window.addEventListener("dragenter", enter);
    window.addEventListener("dragleave", leave);
    window.addEventListener("dragover", over);
    window.addEventListener("drop", drop);
    return () => {
      window.removeEventListener("dragenter", enter);
      window.removeEventListener("dragleave", leave);
      window.removeEventListener("dragover", over);
      window.removeEventListener("drop", drop);
    };
  });

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = event.target.files === null ? [] : Array.from(event.target.files);
    event.target.value = "";
    void open(files);
  };

  return (
    <section aria-labelledby="run-files-heading" className="mt-10" data-testid="run-file-drop">
      <h2 id="run-files-heading" className="mb-3 text-base font-semibold">
        Open run files
      </h2>
      <div
        data-testid="run-drop-zone"
        data-dragging={dragging}
        onDragOver={(event: DragEvent) => event.preventDefault()}
        className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-6 text-center transition-colors sm:flex-row sm:text-left ${dragging ? "border-accent bg-accent-soft" : "border-line bg-surface"}`}
      >
        <FileUp className="size-7 shrink-0 text-faint" aria-hidden="true" />
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-medium text-ink">Drop files anywhere on this page to browse them as a read-only run</p>
          <p className="mt-0.5 text-muted">
            A Rath run bundle, or the Python reference implementation&apos;s files: persisted sessions (<code className="font-mono text-xs">.jsonl</code>), crashed{" "}
            <code className="font-mono text-xs">.__partial__</code> files and lineage exports — several at once make one run.
          </p>
        </div>
        <input ref={picker} type="file" multiple className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="run-file-input" onChange={onPick} />
        <Button icon={FolderOpen} onClick={() => picker.current?.click()} disabled={importFiles.isPending} data-testid="run-file-choose">
          {importFiles.isPending ? "Reading…" : "Choose files…"}
        </Button>
      </div>
      {failure !== null ? (
        <div role="alert" data-testid="run-import-error" className="mt-3 flex min-w-0 gap-2 rounded-md border border-status-failed/40 bg-raised p-3">
          <FileWarning className="mt-0.5 size-4 shrink-0 text-status-failed" aria-hidden="true" />
          <div className="min-w-0">
            <p className="text-sm font-medium text-ink">Nothing was imported</p>
            <p className="mt-0.5 font-mono text-xs break-words text-muted [overflow-wrap:anywhere]" data-testid="run-import-error-message">
              {failure.message}
            </p>
            <p className="mt-1 text-xs text-faint">Fix the file named above and drop it again. Files: {failure.files.join(", ")}</p>
          </div>
        </div>
      ) : null}
      {dragging ? (
        <div aria-hidden="true" data-testid="run-drop-overlay" className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-canvas/80 backdrop-blur-sm">
          <div className="rounded-lg border-2 border-dashed border-accent bg-surface px-8 py-6 text-center shadow-xl">
            <FileUp className="mx-auto size-8 text-accent" aria-hidden="true" />
            <p className="mt-2 text-sm font-medium text-ink">Drop to open as a read-only run</p>
          </div>
        </div>
      ) : null}
    </section>
  );
}
