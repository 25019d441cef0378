"use client";
/**
 * The run's pending approvals: the prompt and the text under review, and every decision the API takes —
 * Approve; Edit (when the node allows it: the edited text replaces the last message); Respond (an answer appended
 * as a user message); Reject (with an optional reason). A decision re-reads the run; the worker picks it up.
 * In the draft, Escape goes back (focus returns to the button that opened it) and Ctrl/Cmd+Enter submits.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Check, MessageSquareReply, Pencil, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { toast } from "sonner";
import { LongText } from "../inspector/long-text";
import type { PendingInterrupt } from "../trpc/router-types";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";
import { Field, inputClasses } from "../ui/field";
import { formatTime } from "../ui/format";

function requestField(request: unknown, key: string): unknown {
  if (request === null || typeof request !== "object") return undefined;
  return (request as Record<string, unknown>)[key];
}

type Mode = "idle" | "edit" | "respond" | "reject";

function ApprovalCard({ interrupt, label }: { interrupt: PendingInterrupt; label: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const decide = useMutation(
    trpc.runs.decideInterrupt.mutationOptions({
      onSuccess: () => toast.success("Decision recorded"),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey({ runId: interrupt.runId }) }),
    }),
  );
  const prompt = requestField(interrupt.request, "prompt");
  const text = requestField(interrupt.request, "text");
  const allowEdit = requestField(interrupt.request, "allowEdit") === true;
  const expiresAt = requestField(interrupt.request, "expiresAt");
  const [mode, setMode] = useState<Mode>("idle");
  const [draft, setDraft] = useState("");
  const id = useId();
  const card = useRef<HTMLLIElement>(null);
  // The button to focus once the draft closes: the one that opened it.
  const returnFocusTo = useRef<Mode | null>(null);
  useEffect(() => {
    if (mode !== "idle" || returnFocusTo.current === null) return;
    card.current?.querySelector<HTMLElement>(`[data-testid="${returnFocusTo.current}-button"]`)?.focus();
    returnFocusTo.current = null;
  }, [mode]);
  const open = (next: Mode) => {
    setMode(next);
    setDraft(next === "edit" && typeof text === "string" ? text : "");
  };
  const back = () => {
    returnFocusTo.current = mode;
    setMode("idle");
  };
  const submit = () => {
    if (mode === "edit") decide.mutate({ interruptId: interrupt.id, decision: "edit", payload: draft });
    if (mode === "respond") decide.mutate({ interruptId: interrupt.id, decision: "respond", payload: draft });
    if (mode === "reject") decide.mutate({ interruptId: interrupt.id, decision: "reject", ...(draft.trim() === "" ? {} : { payload: draft.trim() }) });
  };
  const canSubmit = !decide.isPending && !((mode === "edit" || mode === "respond") && draft.trim() === "");
  const onDraftKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      back();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (canSubmit) submit();
    }
  };
  return (
    <li ref={card} data-testid="pending-approval" data-interrupt-id={interrupt.id} className="min-w-0 rounded-md border border-line bg-surface p-3">
      <p className="text-sm font-medium text-ink [overflow-wrap:anywhere]">
        {typeof prompt === "string" ? prompt : "Approve this step?"}
        <span className="ml-2 text-xs font-normal text-muted">
          at {label ?? interrupt.nodeId}
          {typeof expiresAt === "string" ? ` · decide before ${formatTime(expiresAt)}` : ""}
        </span>
      </p>
      {typeof text === "string" ? (
        <div className="mt-2 max-h-64 min-w-0 overflow-auto rounded-md border border-line bg-sunken p-2">
          <LongText text={text} limit={4000} testId="approval-text" />
        </div>
      ) : null}
      {mode !== "idle" ? (
        <div className="mt-2">
          <Field id={`${id}-draft`} label={mode === "edit" ? "Edited text (replaces the last message)" : mode === "respond" ? "Your response (added as a user message)" : "Reason (optional)"}>
            <textarea
              id={`${id}-draft`}
              data-testid="approval-draft"
              rows={mode === "reject" ? 2 : 5}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onDraftKey}
              aria-describedby={`${id}-keys`}
              className={`${inputClasses()} resize-y font-sans`}
              autoFocus
            />
          </Field>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              size="sm"
              variant={mode === "reject" ? "danger" : "primary"}
              data-testid="approval-submit"
              disabled={!canSubmit}
              onClick={submit}
            >
              {mode === "edit" ? "Save edit and continue" : mode === "respond" ? "Send response" : "Reject"}
            </Button>
            <Button size="sm" variant="ghost" data-testid="approval-back" onClick={back}>
              Back
            </Button>
            <span id={`${id}-keys`} className="self-center text-xs text-muted">
              Ctrl+Enter to send · Esc to go back
            </span>
          </div>
        </div>
      ) : (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button size="sm" variant="primary" icon={Check} data-testid="approve-button" disabled={decide.isPending} onClick={() => decide.mutate({ interruptId: interrupt.id, decision: "approve" })}>
            Approve
          </Button>
          {allowEdit ? (
            <Button size="sm" icon={Pencil} data-testid="edit-button" disabled={decide.isPending} onClick={() => open("edit")}>
              Edit
            </Button>
          ) : null}
          <Button size="sm" icon={MessageSquareReply} data-testid="respond-button" disabled={decide.isPending} onClick={() => open("respond")}>
            Respond
          </Button>
          <Button size="sm" variant="danger" icon={X} data-testid="reject-button" disabled={decide.isPending} onClick={() => open("reject")}>
            Reject
          </Button>
        </div>
      )}
      {decide.error ? (
        <p role="alert" data-testid="decision-error" className="mt-2 text-sm text-status-failed">
          {decide.error.message}
        </p>
      ) : null}
    </li>
  );
}

/** One card per pending interrupt. */
export function PendingApprovals({ interrupts, labels }: { interrupts: PendingInterrupt[]; labels: Readonly<Record<string, string>> }) {
  if (interrupts.length === 0) return null;
  return (
    <section data-testid="pending-approvals" aria-label="Pending approvals" className="min-w-0">
      <h2 className="mb-1.5 text-xs font-semibold text-status-waiting">Waiting for your decision</h2>
      <ul className="space-y-2">
        {interrupts.map((interrupt) => (
          <ApprovalCard key={interrupt.id} interrupt={interrupt} label={labels[interrupt.nodeId] ?? null} />
        ))}
      </ul>
    </section>
  );
}
