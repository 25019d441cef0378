"use client";
/**
 * The selected chunk's evidence: for a tool result the tool, arguments, result, ok or error kind and message,
 * duration, sandbox backend and working directory, resource key and effect-ledger status; for an assistant chunk
 * its text and tool calls; memory events (query, hits with scores, what was written or committed); route
 * decisions (candidates with descriptions, the choice, the raw answer); and for every chunk its usage, model,
 * latency, producer and time.
 */
import { CircleCheck, CircleX, MousePointerClick } from "lucide-react";
import type { ReactNode } from "react";
import type { SessionChunk } from "../trpc/router-types";
import { EmptyState } from "../ui/empty-state";
import { formatTime, formatTokens } from "../ui/format";
import { effectOf, toolOutcome, type EffectEntry } from "./chunk-evidence";
import { JsonView, parseJson } from "./json-view";
import { LongText } from "./long-text";
import { SafeMarkdown } from "./safe-markdown";

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid min-w-0 grid-cols-[7rem_minmax(0,1fr)] gap-2 py-1 text-xs">
      <dt className="text-muted">{label}</dt>
      <dd data-testid={testId} className="min-w-0 text-ink [overflow-wrap:anywhere]">
        {children}
      </dd>
    </div>
  );
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} className="min-w-0 border-t border-line px-3 py-2 first:border-t-0">
      <h3 className="mb-1 text-[11px] font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

function Value({ text, testId }: { text: string; testId: string }) {
  const json = parseJson(text);
  return json === null ? <LongText text={text} limit={4000} mono testId={testId} /> : <JsonView value={json.value} testId={testId} />;
}

function ToolResult({ view, effects }: { view: SessionChunk; effects: readonly EffectEntry[] }) {
  if (view.chunk.kind !== "tool_result") return null;
  const { payload, meta } = view.chunk;
  const evidence = meta.evidence;
  const outcome = toolOutcome(payload.content, evidence);
  const effect = effectOf(effects, payload.name, evidence?.args);
  return (
    <>
      <Section title="Tool call" testId="inspector-tool">
        <dl>
          <Row label="Tool" testId="inspector-tool-name">
            <span className="font-mono">{payload.name}</span>
          </Row>
          <Row label="Outcome" testId="inspector-tool-outcome">
            {outcome.ok ? (
              <span data-ok="true" className="inline-flex items-center gap-1 text-status-succeeded">
                <CircleCheck className="size-3.5" aria-hidden="true" /> ok
              </span>
            ) : (
              <span data-ok="false" className="inline-flex items-center gap-1 font-medium text-status-failed">
                <CircleX className="size-3.5" aria-hidden="true" /> {outcome.errorKind}
              </span>
            )}
          </Row>
          {outcome.message !== null ? (
            <Row label="Message" testId="inspector-tool-error-message">
              <LongText text={outcome.message} limit={2000} />
            </Row>
          ) : null}
          {evidence !== undefined ? <Row label="Duration">{Math.round(evidence.duration_ms).toLocaleString("en-US")} ms</Row> : null}
          {evidence?.sandbox ? (
            <Row label="Sandbox" testId="inspector-sandbox">
              <span className="font-mono">{evidence.sandbox.backend}</span>
              {evidence.sandbox.working_dir ? <span className="text-muted"> · {evidence.sandbox.working_dir}</span> : null}
              {evidence.sandbox.handle_id ? <span className="text-faint"> · handle {evidence.sandbox.handle_id}</span> : null}
            </Row>
          ) : null}
          <Row label="Resource key">{evidence?.resource_key ?? <span className="text-faint">none (parallel-safe)</span>}</Row>
          <Row label="Effect ledger" testId="inspector-effect">
            {effect === null ? (
              <span className="text-faint">no side-effect record</span>
            ) : (
              <span data-status={effect.status}>
                {effect.status}
                {effect.idempotent ? " · idempotent" : " · not idempotent"}
              </span>
            )}
            {evidence?.replayed === true ? <span className="text-muted"> · replayed from the ledger</span> : null}
          </Row>
          <Row label="Call id">
            <span className="font-mono">{payload.tool_call_id}</span>
          </Row>
        </dl>
      </Section>
      <Section title="Arguments" testId="inspector-arguments">
        {evidence === undefined ? <p className="text-xs text-faint">Not recorded.</p> : <JsonView value={evidence.args} testId="inspector-arguments-json" />}
      </Section>
      <Section title="Result" testId="inspector-result">
        <Value text={payload.content} testId="inspector-result-value" />
      </Section>
    </>
  );
}

function Body({ view, effects }: { view: SessionChunk; effects: readonly EffectEntry[] }) {
  const chunk = view.chunk;
  switch (chunk.kind) {
    case "system":
    case "user":
      return (
        <Section title="Text">
          <LongText text={chunk.payload.content} limit={6000} testId="inspector-text" />
        </Section>
      );
    case "assistant":
      return (
        <>
          {chunk.payload.content ? (
            <Section title="Answer">
              <SafeMarkdown text={chunk.payload.content} testId="inspector-markdown" />
            </Section>
          ) : null}
          {(chunk.payload.tool_calls ?? []).map((call) => {
            const args = parseJson(call.function.arguments);
            return (
              <Section key={call.id} title={`Calls ${call.function.name}`} testId="inspector-tool-call">
                {args === null ? <LongText text={call.function.arguments} mono /> : <JsonView value={args.value} />}
                <p className="mt-1 font-mono text-[11px] text-faint">{call.id}</p>
              </Section>
            );
          })}
        </>
      );
    case "tool_result":
      return <ToolResult view={view} effects={effects} />;
    case "memory": {
      const payload = chunk.payload;
      return (
        <Section title={`Memory ${payload.op}`} testId="inspector-memory">
          <dl>
            <Row label="Store">{payload.store}</Row>
            {payload.query !== undefined ? (
              <Row label="Query">
                <LongText text={payload.query} limit={600} />
              </Row>
            ) : null}
            {payload.uri !== undefined ? <Row label="Written to">{payload.uri}</Row> : null}
            {payload.count !== undefined ? <Row label="Committed">{payload.count} item(s)</Row> : null}
          </dl>
          {payload.hits !== undefined ? (
            <ol className="mt-1 space-y-1.5">
              {payload.hits.length === 0 ? <li className="text-xs text-faint">No hits.</li> : null}
              {payload.hits.map((hit, position) => (
                <li key={`${hit.uri}-${position}`} data-testid="inspector-memory-hit" className="min-w-0 rounded border border-line p-1.5 text-xs">
                  <p className="flex min-w-0 justify-between gap-2 font-mono text-[11px] text-muted">
                    <span className="min-w-0 truncate" title={hit.uri}>
                      {hit.uri}
                    </span>
                    <span className="tabular">score {hit.score.toFixed(3)}</span>
                  </p>
                  <LongText text={hit.snippet} limit={400} />
                </li>
              ))}
            </ol>
          ) : null}
        </Section>
      );
    }
    case "route": {
      const payload = chunk.payload;
      return (
        <Section title={`Route decision by ${payload.selector}`} testId="inspector-route">
          <ol className="space-y-1">
            {payload.candidates.map((candidate) => (
              <li
                key={candidate.index}
                data-testid="inspector-route-candidate"
                data-chosen={candidate.index === payload.chosen ? "true" : "false"}
                className={`min-w-0 rounded border px-1.5 py-1 text-xs ${candidate.index === payload.chosen ? "border-accent bg-accent-soft" : "border-line"}`}
              >
                <span className="font-mono text-muted">{candidate.index}:</span> <span className="font-medium">{candidate.name}</span>
                {candidate.index === payload.chosen ? <span className="ml-1 text-accent">chosen</span> : null}
                <p className="text-muted [overflow-wrap:anywhere]">{candidate.description}</p>
              </li>
            ))}
          </ol>
          <p className="mt-1 text-xs">{payload.chosen < 0 ? "Chose to stop (−1 or no valid choice)." : `Chose candidate ${payload.chosen}.`}</p>
          <h4 className="mt-2 text-[11px] text-muted">Raw answer</h4>
          <LongText text={payload.reply === "" ? "(empty)" : payload.reply} limit={2000} mono testId="inspector-route-reply" />
        </Section>
      );
    }
  }
}

/** Props: the chunk (null: nothing selected), whether it is loading, and the run's effect ledger. */
export function ChunkInspector({ view, loading, effects }: { view: SessionChunk | null; loading: boolean; effects: readonly EffectEntry[] }) {
  if (view === null) {
    return (
      <EmptyState icon={MousePointerClick} title={loading ? "Loading the chunk…" : "No chunk selected"} testId="inspector-empty">
        Select a chunk in the session to see its evidence: tool arguments and results, memory hits, route decisions and usage.
      </EmptyState>
    );
  }
  const meta = view.chunk.meta;
  return (
    <div data-testid="chunk-inspector" data-kind={view.chunk.kind} data-index={view.index} className="min-w-0">
      <Body view={view} effects={effects} />
      <Section title="Details" testId="inspector-details">
        <dl>
          <Row label="Chunk">
            #{view.index} · {view.chunk.kind}
          </Row>
          {meta.producer !== undefined ? <Row label="Producer">{meta.producer}</Row> : null}
          <Row label="At">{formatTime(meta.at)}</Row>
          {meta.model !== undefined ? <Row label="Model" testId="inspector-model">{meta.model}</Row> : null}
          {meta.latency_ms !== undefined ? <Row label="Latency">{Math.round(meta.latency_ms).toLocaleString("en-US")} ms</Row> : null}
          {meta.usage !== undefined ? (
            <Row label="Usage" testId="inspector-usage">
              <span className="tabular">
                {formatTokens(meta.usage.prompt_tokens)} prompt · {formatTokens(meta.usage.completion_tokens)} completion · {formatTokens(meta.usage.total_tokens)} total
              </span>
            </Row>
          ) : null}
          {meta.source_session_id !== undefined ? <Row label="Summarises">{meta.source_session_id}</Row> : null}
        </dl>
      </Section>
    </div>
  );
}
