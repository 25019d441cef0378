"use client";
/** "Test connection" for one provider: one real request from the server; shows the model's answer or the provider's error. */
import { useMutation } from "@tanstack/react-query";
import { CircleCheck, CircleX, PlugZap } from "lucide-react";
import { useTRPC } from "../trpc/trpc-context";
import { Button } from "../ui/button";

/** The button and, once it ran, the result under it. */
export function ConnectionTest({ name }: { name: string }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.settings.providers.testConnection.mutationOptions());
  const result = test.data;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div>
        <Button size="sm" icon={PlugZap} onClick={() => test.mutate({ name })} disabled={test.isPending} data-testid="provider-test" aria-label={`Test connection of ${name}`}>
          {test.isPending ? "Testing…" : "Test connection"}
        </Button>
      </div>
      <div aria-live="polite" className="min-w-0">
        {test.error ? (
          <p role="alert" className="text-xs text-status-failed" data-testid="provider-test-result" data-ok="false">
            {test.error.message}
          </p>
        ) : result === undefined || test.isPending ? null : result.ok ? (
          <div data-testid="provider-test-result" data-ok="true" className="rounded-md border border-line bg-sunken p-2 text-xs">
            <p className="flex items-center gap-1 font-medium text-status-succeeded">
              <CircleCheck className="size-3.5" aria-hidden="true" />
              Connected · {result.model} · {result.latencyMs} ms{result.totalTokens === null ? "" : ` · ${result.totalTokens} tokens`}
            </p>
            <p className="mt-1 whitespace-pre-wrap text-ink" data-testid="provider-test-answer">
              {result.answer}
            </p>
          </div>
        ) : (
          <div data-testid="provider-test-result" data-ok="false" className="rounded-md border border-line bg-sunken p-2 text-xs">
            <p className="flex items-center gap-1 font-medium text-status-failed">
              <CircleX className="size-3.5" aria-hidden="true" />
              Failed · {result.code}
            </p>
            <p className="mt-1 whitespace-pre-wrap text-ink" data-testid="provider-test-error">
              {result.error}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
