/**
 * The demo selector: reads the conversation and the numbered candidates and picks like a careful router would.
 * When the latest answer says the work is finished (DONE, RESOLVED, approved) it picks the candidate that
 * finishes (wrap-up, publish, final) or -1 when there is none; otherwise the candidate that continues the work
 * (revise, specialist, again); otherwise the candidate whose description shares the most words with the latest
 * answer. The reply starts with the index and says why, so the route chunk explains the decision.
 */
import type { ChatMessage } from "../types";
import { assistantAnswers, shorten } from "./conversation";

/** One menu line `i: description`. */
export interface RouteCandidate {
  index: number;
  description: string;
}

const FINISHED = /\b(DONE|RESOLVED|APPROVED)\b|ready to publish/;
const FINISHES = /\b(final|finish|wrap|publish|done|summar|close|polish|report)/i;
const CONTINUES = /\b(revis|again|back|specialist|more|retry|continue|investigat|fix|rework|iterate)/i;

/** The candidates of a selector menu message. */
export function parseMenu(menu: string): RouteCandidate[] {
  const candidates: RouteCandidate[] = [];
  for (const line of menu.split("\n")) {
    const match = /^(\d+):\s*(.*)$/.exec(line.trim());
    if (match?.[1] !== undefined) candidates.push({ index: Number(match[1]), description: match[2] ?? "" });
  }
  return candidates;
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length > 3));
}

function overlap(a: Set<string>, b: Set<string>): number {
  let count = 0;
  for (const word of a) if (b.has(word)) count++;
  return count;
}

/** The reply of the demo selector: `<index> — <reason>`. */
export function chooseRoute(conversation: readonly ChatMessage[], candidates: readonly RouteCandidate[]): string {
  if (candidates.length === 0) return "-1 — there is nothing to choose from.";
  const latest = assistantAnswers(conversation).at(-1) ?? "";
  const quoted = latest === "" ? "the request" : `“${shorten(latest, 70)}”`;
  if (FINISHED.test(latest)) {
    const finisher = candidates.find((candidate) => FINISHES.test(candidate.description));
    return finisher ? `${finisher.index} — the latest answer says the work is finished (${quoted}), so it goes to: ${shorten(finisher.description, 80)}` : `-1 — the work is finished (${quoted}); nothing else applies.`;
  }
  const continuer = candidates.find((candidate) => CONTINUES.test(candidate.description));
  if (continuer) return `${continuer.index} — the work is not finished yet (${quoted}), so: ${shorten(continuer.description, 80)}`;
  const latestWords = words(latest);
  let best = candidates[0] as RouteCandidate;
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = overlap(latestWords, words(candidate.description));
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return `${best.index} — it fits ${quoted} best: ${shorten(best.description, 80)}`;
}
