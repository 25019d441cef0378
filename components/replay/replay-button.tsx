"use client";
/** "Replay" in the run header: plays a finished run back (presentation mode); hidden while the run still moves. */
import { Clapperboard } from "lucide-react";
import { Button } from "../ui/button";
import { isActiveStatus } from "../ui/format";

/** Props: the run's status, whether its graph is loaded, and what starts the replay. */
export function ReplayButton({ status, ready, onReplay }: { status: string; ready: boolean; onReplay: () => void }) {
  if (isActiveStatus(status)) return null;
  return (
    <Button size="sm" variant="ghost" icon={Clapperboard} data-testid="replay-button" disabled={!ready} onClick={onReplay} title="Play this run back as it happened (presentation mode)">
      Replay
    </Button>
  );
}
