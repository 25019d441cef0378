/**
 * Pieces of the Export dialog: one export option (title, what it holds, its action) and the reference dialect's
 * file list (the lineage export first, then each session file, one download each, and all of them in one .tar).
 */
import { Download, FileText } from "lucide-react";
import { useId, type ReactNode } from "react";
import { Button } from "../ui/button";
import { formatBytes } from "../ui/download";

/** A file of an export: its suggested name and text. */
export interface ExportedFile {
  name: string;
  content: string;
}

/** Props of one option. */
export interface ExportOptionProps {
  title: string;
  testId: string;
  action: string;
  disabled: boolean;
  onAction: () => void;
  children: ReactNode;
}

/** One export: what it is and its button. */
export function ExportOption({ title, testId, action, disabled, onAction, children }: ExportOptionProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} data-testid={testId} className="min-w-0 rounded-md border border-line px-3 py-2.5">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h3 id={titleId} className="min-w-0 flex-1 text-sm font-medium text-ink">
          {title}
        </h3>
        <Button size="sm" icon={Download} disabled={disabled} onClick={onAction} data-testid={`${testId}-action`}>
          {action}
        </Button>
      </div>
      <div className="mt-1 text-xs text-muted">{children}</div>
    </section>
  );
}

function FileRow({ file, label, onSave }: { file: ExportedFile; label: string; onSave: (file: ExportedFile) => void }) {
  return (
    <li data-testid="export-file" data-file-name={file.name} className="flex min-w-0 items-center gap-2 py-1.5">
      <FileText className="size-3.5 shrink-0 text-muted" aria-hidden="true" />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-mono text-xs text-ink" title={file.name}>
          {file.name}
        </span>
        <span className="text-[11px] text-muted">
          {label} · {formatBytes(file.content)}
        </span>
      </span>
      <Button size="sm" variant="ghost" icon={Download} aria-label={`Download ${file.name}`} title={`Download ${file.name}`} onClick={() => onSave(file)} data-testid="export-file-download" />
    </li>
  );
}

/** The reference dialect's files, ready to download. */
export function ReferenceFiles({ sessions, lineage, onSave, onSaveAll }: { sessions: readonly ExportedFile[]; lineage: ExportedFile; onSave: (file: ExportedFile) => void; onSaveAll: (files: readonly ExportedFile[]) => void }) {
  const files = [lineage, ...sessions];
  return (
    <div data-testid="export-reference-files" className="mt-2">
      <ul className="max-h-60 divide-y divide-line overflow-y-auto rounded border border-line px-2">
        <FileRow file={lineage} label="lineage export" onSave={onSave} />
        {sessions.map((file) => (
          <FileRow key={file.name} file={file} label="session" onSave={onSave} />
        ))}
      </ul>
      <Button size="sm" variant="secondary" icon={Download} className="mt-2" data-testid="export-reference-all" onClick={() => onSaveAll(files)}>
        Download all {files.length} files (.tar)
      </Button>
    </div>
  );
}
