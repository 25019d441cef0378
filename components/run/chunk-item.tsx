"use client";
/**
 * One chunk in the session's list, compact: its role (label, icon and colour stripe), index, producer, model and
 * tokens, and a preview by kind — text (assistant text as safe markdown), tool calls, a tool result with its
 * outcome, a route decision, memory hits. Long text is cut with "Show all". Clicking selects it for the inspector.
 */
import { Bot, Brain, Settings2, Signpost, User, Wrench, type LucideIcon } from "lucide-react";
import { memo } from "react";
import { toolOutcome } from "../inspector/chunk-evidence";
import { LongText } from "../inspector/long-text";
import { SafeMarkdown } from "../inspector/safe-markdown";
import type { SessionChunk } from "../trpc/router-types";
import { formatTokens } from "../ui/format";

const ROLES: Record<string, { label: string; icon: LucideIcon; stripe: string }> = {
  system: { label: "system", icon: Settings2, stripe: "var(--rath-line-strong)" },
  user: { label: "user", icon: User, stripe: "var(--rath-accent)" },
  assistant: { label: "assistant", icon: Bot, stripe: "var(--rath-lineage-merge)" },
  tool_result: { label: "tool result", icon: Wrench, stripe: "var(--rath-status-succeeded)" },
  memory: { label: "memory", icon: Brain, stripe: "var(--rath-status-waiting)" },
  route: { label: "route", icon: Signpost, stripe: "var(--rath-lineage-compress)" },
};

const MARKDOWN_LIMIT = 4000;

function Preview({ view }: { view: SessionChunk }) {
  const chunk = view.chunk;
  switch (chunk.kind) {
    case "system":
    case "user":
      return <LongText text={chunk.payload.content} limit={700} testId="chunk-text" />;
    case "assistant": {
      const content = chunk.payload.content;
      return (
        <>
          {content !== null && content !== "" ? (
            content.length <= MARKDOWN_LIMIT ? <SafeMarkdown text={content} testId="chunk-text" /> : <LongText text={content} limit={1500} testId="chunk-text" />
          ) : null}
          {(chunk.payload.tool_calls ?? []).map((call) => (
            <p key={call.id} data-testid="chunk-tool-call" title={call.function.arguments.slice(0, 2000)} className="mt-1 truncate font-mono text-xs text-muted">
              <span className="text-ink">{call.function.name}</span>({call.function.arguments})
            </p>
          ))}
        </>
      );
    }
    case "tool_result": {
      const evidence = chunk.meta.evidence;
      const outcome = toolOutcome(chunk.payload.content, evidence);
      return (
        <>
          <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-xs">
            <span className="font-mono text-ink">{chunk.payload.name}</span>
            <span data-testid="tool-evidence" data-ok={String(outcome.ok)} className={outcome.ok ? "text-status-succeeded" : "font-medium text-status-failed"}>
              {outcome.ok ? "ok" : `error: ${outcome.errorKind}`}
            </span>
            {evidence !== undefined ? <span className="text-faint tabular">{Math.round(evidence.duration_ms)} ms</span> : null}
            {evidence?.replayed === true ? <span className="text-faint">replayed</span> : null}
          </p>
          <LongText text={chunk.payload.content} limit={280} mono testId="chunk-text" className="mt-0.5 text-muted" />
        </>
      );
    }
    case "route": {
      const payload = chunk.payload;
      const chosen = payload.chosen < 0 ? "done" : (payload.candidates.find((candidate) => candidate.index === payload.chosen)?.name ?? `candidate ${payload.chosen}`);
      return (
        <p data-testid="route-decision" data-chosen={payload.chosen} className="text-sm">
          {payload.selector} chose <strong data-testid="route-chosen">{chosen}</strong>
          <span className="text-muted"> from {payload.candidates.map((candidate) => candidate.name).join(", ") || "no candidates"}</span>
        </p>
      );
    }
    case "memory":
      return (
        <div className="min-w-0 text-sm">
          <p className="text-xs text-muted [overflow-wrap:anywhere]">
            {chunk.payload.op} · {chunk.payload.store}
            {chunk.payload.query === undefined ? "" : ` · query: ${chunk.payload.query.slice(0, 300)}`}
          </p>
          <ul className="mt-0.5 space-y-0.5">
            {(chunk.payload.hits ?? []).slice(0, 5).map((hit, position) => (
              <li key={`${hit.uri}-${position}`} data-testid="memory-hit" className="min-w-0 text-xs [overflow-wrap:anywhere]">
                <span className="font-mono text-faint">
                  {hit.uri} ({hit.score.toFixed(2)})
                </span>{" "}
                {hit.snippet}
              </li>
            ))}
          </ul>
        </div>
      );
  }
}

/** Props: the chunk, whether it is selected, and the selection callback. */
export interface ChunkItemProps {
  view: SessionChunk;
  selected: boolean;
  onSelect: (index: number) => void;
}

function ChunkItemView({ view, selected, onSelect }: ChunkItemProps) {
  const chunk = view.chunk;
  const failed = chunk.kind === "tool_result" && toolOutcome(chunk.payload.content, chunk.meta.evidence).ok === false;
  const role = ROLES[chunk.kind] ?? { label: chunk.kind, icon: Settings2, stripe: "var(--rath-line)" };
  const Icon = role.icon;
  return (
    // The row's header is its button (named by what it shows); a click anywhere else on the row selects it too.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions
    <div
      data-testid="chunk"
      data-kind={chunk.kind}
      data-index={view.index}
      data-failed={failed ? "true" : "false"}
      data-selected={selected ? "true" : "false"}
      onClick={(event) => {
        if ((event.target as HTMLElement).closest("a,button") !== null) return;
        onSelect(view.index);
      }}
      style={{ borderLeftColor: failed ? "var(--rath-status-failed)" : role.stripe }}
      className={`min-w-0 cursor-pointer rounded-r-md border-l-[3px] py-1.5 pr-2 pl-2.5 ${selected ? "bg-accent-soft" : failed ? "bg-raised hover:bg-sunken" : "hover:bg-raised"}`}
    >
      <button
        type="button"
        data-testid="chunk-select"
        aria-current={selected ? "true" : undefined}
        onClick={() => onSelect(view.index)}
        className="flex w-full min-w-0 items-center gap-x-2 rounded-sm text-left text-[11px] text-muted"
      >
        <Icon className="size-3 shrink-0" aria-hidden="true" />
        <span data-testid="chunk-kind" className="font-medium text-ink">
          {role.label}
        </span>
        <span className="tabular text-faint">#{view.index}</span>
        {chunk.meta.producer === undefined ? null : (
          <span data-testid="chunk-producer" className="min-w-0 truncate">
            by {chunk.meta.producer}
          </span>
        )}
        <span className="ml-auto flex shrink-0 items-center gap-2 tabular">
          {chunk.meta.model === undefined ? null : <span className="hidden truncate sm:inline">{chunk.meta.model}</span>}
          {chunk.meta.usage === undefined ? null : <span>{formatTokens(chunk.meta.usage.total_tokens)} tok</span>}
        </span>
      </button>
      <div className="mt-0.5 min-w-0">
        <Preview view={view} />
      </div>
    </div>
  );
}

/**
 * Whether a row shows the same: the same stored chunk at the same index. The session a view names is not shown (a
 * live run's newest session shows the chunks it inherited as its own: new views of the same chunks, step after step).
 */
export function sameChunkRow(previous: ChunkItemProps, next: ChunkItemProps): boolean {
  return previous.view.chunk === next.view.chunk && previous.view.index === next.view.index && previous.selected === next.selected && previous.onSelect === next.onSelect;
}

/**
 * A chunk row (memoised: a growing list re-renders only new rows, and a list that moves on to the newest session
 * re-renders none of the rows it inherited: their markdown is not parsed again).
 */
export const ChunkItem = memo(ChunkItemView, sameChunkRow);
