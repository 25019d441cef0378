/** The stream's state as a dot and a word: live (pushed events arriving), connecting, reconnecting, or finished. */
import type { StreamState } from "./use-run-live";

const LOOKS: Record<StreamState, { label: string; dot: string; title: string }> = {
  loading: { label: "Loading", dot: "bg-status-queued", title: "Reading the run" },
  connecting: { label: "Connecting", dot: "bg-status-waiting animate-pulse", title: "Opening the event stream" },
  live: { label: "Live", dot: "bg-status-succeeded animate-pulse", title: "Events are pushed as the run commits them" },
  reconnecting: { label: "Reconnecting", dot: "bg-status-waiting animate-pulse", title: "The stream dropped; resuming after the last event received" },
  ended: { label: "Final", dot: "bg-status-queued", title: "The run has finished; nothing more will arrive" },
};

/** Props: the state and how often the stream reconnected. */
export function LiveIndicator({ state, reconnects, lastSeq }: { state: StreamState; reconnects: number; lastSeq: number }) {
  const look = LOOKS[state];
  return (
    <span
      data-testid="live-indicator"
      data-state={state}
      data-reconnects={reconnects}
      data-last-seq={lastSeq}
      title={`${look.title}${reconnects > 0 ? ` · reconnected ${reconnects}×` : ""} · event ${lastSeq}`}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-[11px] font-medium text-muted"
    >
      <span className={`size-1.5 rounded-full ${look.dot}`} aria-hidden="true" />
      {look.label}
    </span>
  );
}
