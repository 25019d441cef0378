"use client";
/** The run header's Export button: opens the Export dialog (export-dialog.tsx). */
import { FileDown } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { ExportDialog } from "./export-dialog";

/** Props: the run to export. */
export function ExportButton({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="ghost" icon={FileDown} onClick={() => setOpen(true)} data-testid="export-button" aria-haspopup="dialog">
        Export
      </Button>
      <ExportDialog runId={runId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
