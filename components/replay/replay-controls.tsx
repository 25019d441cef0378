/**
 * The replay presentation's top bar: the run's title, where the playback is (time, event, sessions), the speeds,
 * step / play / restart, full screen (optional: the presentation already fills the window) and leave.
 */
import { ChevronLeft, ChevronRight, Maximize, Minimize, Pause, Play, RotateCcw, X } from "lucide-react";
import { Button } from "../ui/button";
import { REPLAY_SPEEDS } from "./replay-clock";
import type { Replay } from "./use-replay";

function clock(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Props: the replay, its title id (the dialog's label), full-screen state and the actions the bar offers. */
export interface ReplayControlsProps {
  replay: Replay;
  title: string;
  titleId: string;
  fullscreen: boolean;
  canFullscreen: boolean;
  onToggleFullscreen: () => void;
  onLeave: () => void;
}

/** The bar. */
export function ReplayControls({ replay, title, titleId, fullscreen, canFullscreen, onToggleFullscreen, onLeave }: ReplayControlsProps) {
  return (
    <div className="flex shrink-0 min-w-0 flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-3 py-2 sm:px-5">
      <h2 id={titleId} className="min-w-0 flex-1 basis-48 truncate text-lg font-semibold tracking-tight sm:text-xl">
        Replay · {title}
      </h2>
      <span className="text-sm text-muted tabular" data-testid="replay-position">
        {clock(replay.positionMs)} / {clock(replay.durationMs)} · event {replay.shown} of {replay.events.length} · {replay.graph.sessions.length} sessions
      </span>
      <div className="flex items-center gap-1" role="group" aria-label="Speed">
        {REPLAY_SPEEDS.map((speed) => (
          <Button key={speed} size="sm" variant={replay.speed === speed ? "primary" : "ghost"} aria-pressed={replay.speed === speed} data-testid={`replay-speed-${speed}`} onClick={() => replay.changeSpeed(speed)}>
            {speed}×
          </Button>
        ))}
      </div>
      <div className="flex items-center gap-1">
        <Button size="sm" variant="ghost" icon={ChevronLeft} aria-label="Previous event (←)" title="Previous event (←)" data-testid="replay-back" onClick={() => replay.stepBy(-1)} />
        <Button
          size="sm"
          variant="secondary"
          icon={replay.playing ? Pause : Play}
          data-testid="replay-toggle"
          onClick={replay.toggle}
          aria-label={replay.playing ? "Pause (Space)" : "Play (Space)"}
          title={replay.playing ? "Pause (Space)" : "Play (Space)"}
        />
        <Button size="sm" variant="ghost" icon={ChevronRight} aria-label="Next event (→)" title="Next event (→)" data-testid="replay-next" onClick={() => replay.stepBy(1)} />
        <Button size="sm" variant="ghost" icon={RotateCcw} aria-label="Play from the start" title="Play from the start" data-testid="replay-restart" onClick={replay.restart} />
        {canFullscreen ? (
          <Button
            size="sm"
            variant="ghost"
            icon={fullscreen ? Minimize : Maximize}
            aria-label="Full screen (F)"
            title={fullscreen ? "Leave full screen (F)" : "Full screen (F)"}
            aria-pressed={fullscreen}
            data-testid="replay-fullscreen"
            onClick={onToggleFullscreen}
          />
        ) : null}
        <Button size="sm" variant="ghost" icon={X} aria-label="Leave the replay (Esc)" title="Leave the replay (Esc)" data-testid="replay-exit" onClick={onLeave} />
      </div>
    </div>
  );
}
