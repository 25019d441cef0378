"use client";
/** The replay presentation's optional full screen and its keys (replay-keys.ts). */
import { useCallback, useEffect, useState } from "react";
import { replayCommand } from "./replay-keys";
import type { Replay } from "./use-replay";

/** Full screen of the whole page (the dialog stays on top of it), optional: a refusal changes nothing. */
export function useFullscreen(): { fullscreen: boolean; supported: boolean; toggle: () => void; exit: () => void } {
  const [fullscreen, setFullscreen] = useState(false);
  const [supported, setSupported] = useState(false);
  useEffect(() => {
    setSupported(document.fullscreenEnabled);
    const onChange = () => setFullscreen(document.fullscreenElement !== null);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  const exit = useCallback(() => {
    if (document.fullscreenElement !== null) void document.exitFullscreen().catch(() => undefined);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement !== null) exit();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  }, [exit]);
  return { fullscreen, supported, toggle, exit };
}

/** The keys of the presentation (replay-keys.ts), wherever focus is inside it. */
export function useReplayKeys(replay: Replay, toggleFullscreen: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = replayCommand(event);
      if (command === null) return;
      event.preventDefault();
      if (command.kind === "toggle") replay.toggle();
      else if (command.kind === "step") replay.stepBy(command.direction);
      else if (command.kind === "start") replay.rewind();
      else if (command.kind === "speed") replay.changeSpeed(command.speed);
      else toggleFullscreen();
    };
    // Space is the replay's: a focused button must not also be clicked by it (buttons click on Space's keyup).
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key === " ") event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp);
    };
  }, [replay, toggleFullscreen]);
}
