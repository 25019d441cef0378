/**
 * One chunk of a session, by kind: text for system / user / assistant (plus tool calls), the tool result with its
 * evidence (ok or the error kind), a route decision, memory hits. Everything is rendered as inert text.
 */
import type { SessionChunk } from "../trpc/router-types";

const KIND_STYLES: Record<string, string> = {
  system: "border-zinc-300 dark:border-zinc-700",
  user: "border-sky-400 dark:border-sky-600",
  assistant: "border-violet-400 dark:border-violet-600",
  tool_result: "border-emerald-400 dark:border-emerald-700",
  memory: "border-amber-400 dark:border-amber-600",
  route: "border-fuchsia-400 dark:border-fuchsia-600",
};

function Text({ value, testId }: { value: string; testId?: string }) {
  return (
    <pre data-testid={testId} className="mt-1 whitespace-pre-wrap break-words font-sans text-sm">
      {value}
    </pre>
  );
}

function ChunkBody({ view }: { view: SessionChunk }) {
  const chunk = view.chunk;
  switch (chunk.kind) {
    case "system":
    case "user":
      return <Text value={chunk.payload.content} testId="chunk-text" />;
    case "assistant":
      return (
        <>
          {chunk.payload.content !== null && chunk.payload.content !== "" ? <Text value={chunk.payload.content} testId="chunk-text" /> : null}
          {(chunk.payload.tool_calls ?? []).map((call) => (
            <p key={call.id} data-testid="chunk-tool-call" className="mt-1 font-mono text-xs text-zinc-600 dark:text-zinc-400">
              calls {call.function.name}({call.function.arguments})
            </p>
          ))}
        </>
      );
    case "tool_result": {
      const evidence = chunk.meta.evidence;
      return (
        <>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs">
            <span className="font-mono">{chunk.payload.name}</span>
            {evidence === undefined ? null : evidence.ok ? (
              <span data-testid="tool-evidence" data-ok="true" className="rounded bg-emerald-100 px-1.5 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-200">
                ok
              </span>
            ) : (
              <span data-testid="tool-evidence" data-ok="false" className="rounded bg-red-100 px-1.5 text-red-800 dark:bg-red-900/50 dark:text-red-200">
                error: {evidence.error_kind ?? "unknown"}
              </span>
            )}
            {evidence === undefined ? null : <span className="text-zinc-500">{Math.round(evidence.duration_ms)} ms</span>}
            {evidence?.replayed === true ? <span className="text-zinc-500">replayed</span> : null}
          </p>
          <Text value={chunk.payload.content} testId="chunk-text" />
        </>
      );
    }
    case "route": {
      const payload = chunk.payload;
      const chosen = payload.chosen < 0 ? "done" : (payload.candidates.find((candidate) => candidate.index === payload.chosen)?.name ?? `candidate ${payload.chosen}`);
      return (
        <div data-testid="route-decision" data-chosen={payload.chosen} className="mt-1 text-sm">
          <p>
            {payload.selector} chose <strong data-testid="route-chosen">{chosen}</strong>
            <span className="text-zinc-500"> from {payload.candidates.map((candidate) => candidate.name).join(", ") || "no candidates"}</span>
          </p>
          {payload.reply !== "" ? <p className="mt-1 font-mono text-xs text-zinc-500">model reply: {payload.reply}</p> : null}
        </div>
      );
    }
    case "memory":
      return (
        <div className="mt-1 text-sm">
          <p className="text-xs text-zinc-500">
            {chunk.payload.op} · {chunk.payload.store}
            {chunk.payload.query === undefined ? "" : ` · query: ${chunk.payload.query}`}
          </p>
          <ul className="mt-1 space-y-1">
            {(chunk.payload.hits ?? []).map((hit, position) => (
              <li key={`${hit.uri}-${position}`} data-testid="memory-hit" className="text-sm">
                <span className="font-mono text-xs text-zinc-500">
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

/** Renders one chunk with its index, kind and producer. */
export function ChunkItem({ view }: { view: SessionChunk }) {
  const chunk = view.chunk;
  const failed = chunk.kind === "tool_result" && chunk.meta.evidence?.ok === false;
  return (
    <li
      data-testid="chunk"
      data-kind={chunk.kind}
      data-index={view.index}
      className={`border-l-4 py-1 pl-3 ${KIND_STYLES[chunk.kind] ?? ""} ${failed ? "bg-red-50 dark:bg-red-950/30" : ""}`}
    >
      <p className="flex flex-wrap gap-x-2 text-xs text-zinc-500">
        <span className="tabular-nums">#{view.index}</span>
        <span data-testid="chunk-kind" className="font-medium text-zinc-700 dark:text-zinc-300">
          {chunk.kind}
        </span>
        {chunk.meta.producer === undefined ? null : <span data-testid="chunk-producer">by {chunk.meta.producer}</span>}
        {chunk.meta.model === undefined ? null : <span>{chunk.meta.model}</span>}
        {chunk.meta.usage === undefined ? null : <span>{chunk.meta.usage.total_tokens} tokens</span>}
      </p>
      <ChunkBody view={view} />
    </li>
  );
}
