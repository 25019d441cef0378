"use client";
/** The run header's Share button: opens the share dialog (share-dialog.tsx). */
import { Share2 } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { ShareDialog } from "./share-dialog";

/** Props: the run to share. */
export function ShareButton({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" icon={Share2} onClick={() => setOpen(true)} data-testid="share-button" aria-haspopup="dialog">
        Share
      </Button>
      <ShareDialog runId={runId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
