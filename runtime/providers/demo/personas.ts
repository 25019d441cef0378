/**
 * The demo provider's final answers, chosen by the agent's instructions (a reviewer reviews, a writer drafts, a
 * triage agent classifies, a specialist works the case, a wrap-up agent closes it) and written from the
 * conversation, so that every template gives a plausible, content-aware run offline. Personas number their own
 * turns ("Draft 2:", "Review 2:") and read the earlier ones, which is how a loop converges: the reviewer says
 * DONE at its third review and the specialist RESOLVED at its third step, so a selector loops at least twice.
 * Anything that matches no persona gets the neutral reply quoting the user.
 */
import type { ChatMessage } from "../types";
import { assistantAnswers, countAnswersStartingWith, recalledMemories, shorten, userMessages } from "./conversation";

/** After how many turns the reviewer and the specialist consider the work finished. */
export const TURNS_UNTIL_FINISHED = 3;

/** What a persona sees: instructions, conversation, the latest user text, and the tool results of this turn. */
export interface PersonaInput {
  instructions: string;
  messages: readonly ChatMessage[];
  lastUser: string;
  toolResults: ReadonlyArray<{ name: string; content: string }>;
  /** The asking agent's name, if known: agents without a persona each take their own angle on the request. */
  caller?: string | null;
}

type Persona = { matches: RegExp; answer: (input: PersonaInput) => string };

const CATEGORIES: Array<[string, RegExp]> = [
  ["billing", /\b(invoice|charge[ds]?|refund|price|bill(ing|ed)?|payment|subscription)\b/i],
  ["technical", /\b(error|crash(es|ed)?|bug|fail(s|ed|ing)?|install|timeout|slow|broken|500)\b/i],
  ["account", /\b(password|login|log in|sign[ -]?in|account|email address|2fa)\b/i],
];

function categoryOf(text: string): string {
  return CATEGORIES.find(([, pattern]) => pattern.test(text))?.[0] ?? "general";
}

/** The two options of a "Compare A and B" request (defaults when the request names none). */
function optionsOf(topic: string): [string, string] {
  const match = /\bcompare\s+(.+?)\s+(?:and|with|vs\.?|versus)\s+(.+?)(?:\s+for\b|[.?!]|$)/i.exec(topic);
  return match?.[1] && match[2] ? [match[1], match[2]] : ["the first option", "the alternative"];
}

/** The sentences of the first user message, without speaker labels ("Ana: …"). */
function sentencesOf(input: PersonaInput): string[] {
  const text = userMessages(input.messages)[0] ?? input.lastUser;
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.replace(/^[A-Z][a-z]+:\s+/, "").trim())
    .filter((sentence) => sentence !== "");
}

function topicOf(input: PersonaInput): string {
  return shorten(userMessages(input.messages)[0] ?? input.lastUser, 120);
}

const GENERAL_STEPS = ["clarify what the customer needs", "gather the relevant documentation", "answer with the steps and links"];

const SPECIALIST_STEPS: Record<string, string[]> = {
  billing: ["check the invoice history for duplicate charges", "confirm the charge with the payment provider", "issue the refund and send the receipt"],
  technical: ["reproduce the error with the customer's steps", "find the cause in the logs and apply the fix", "confirm with the customer that the fix works"],
  account: ["verify the customer's identity", "reset the sign-in and expire old sessions", "confirm the customer can sign in again"],
  general: GENERAL_STEPS,
};

const REVIEW_NOTES = ["the opening is vague; name the subject in the first line", "tighten the last line and cut filler words"];

const PERSONAS: Persona[] = [
  {
    matches: /\brelease notes\b/i,
    answer: (input) => {
      const request = userMessages(input.messages)[0] ?? input.lastUser;
      const version = /\b(\d+\.\d+(?:\.\d+)?)\b/.exec(request)?.[1] ?? "the new version";
      const changes = (request.split(":").slice(1).join(":") || request)
        .split(/,|\band\b|;/)
        .map((change) => change.trim().replace(/[.]$/, ""))
        .filter((change) => change !== "");
      return `Release ${version}\n${changes.map((change) => `- ${change.charAt(0).toUpperCase()}${change.slice(1)}`).join("\n")}`;
    },
  },
  {
    matches: /^\s*review\b|\breview the\b|\byou are a reviewer\b/i,
    answer: (input) => {
      const number = countAnswersStartingWith(input.messages, /^Review \d+:/) + 1;
      const draft = shorten(assistantAnswers(input.messages).at(-1) ?? "", 80);
      if (number >= TURNS_UNTIL_FINISHED) return `Review ${number}: DONE. “${draft}” reads well and answers the brief.`;
      return `Review ${number}: not finished yet — ${REVIEW_NOTES[(number - 1) % REVIEW_NOTES.length]}.`;
    },
  },
  {
    matches: /\b(polish|final draft|publish)/i,
    answer: (input) => {
      const draft = assistantAnswers(input.messages)
        .filter((answer) => /^Draft \d+:/.test(answer))
        .at(-1);
      return `Final: ${(draft ?? topicOf(input)).replace(/^Draft \d+:\s*/, "")}`;
    },
  },
  {
    matches: /\brecommend/i,
    answer: (input) => {
      const [first, second] = optionsOf(topicOf(input));
      const findings = assistantAnswers(input.messages).filter((answer) => /^Arguments (for|against)/.test(answer));
      return `Recommendation (from ${findings.length} finding${findings.length === 1 ? "" : "s"}): start with ${first} for a single machine — it costs nothing to run — and move to ${second} when several workers must share one store.`;
    },
  },
  {
    matches: /\b(draft|write|revise)\b/i,
    answer: (input) => {
      const number = countAnswersStartingWith(input.messages, /^Draft \d+:/) + 1;
      const review = assistantAnswers(input.messages)
        .filter((answer) => /^Review \d+:/.test(answer))
        .at(-1);
      if (/\bemail\b/i.test(input.instructions)) {
        return `Draft ${number} — email for “${topicOf(input)}”:\nSubject: What's new this release\n\nHi everyone, the new release is out today. It brings faster runs, clearer errors and a session graph you can share. Thanks for the feedback that shaped it.`;
      }
      const lines = [`a first pass at “${topicOf(input)}”`, "sharper subject, fewer words", "tight, clear and ready for review"];
      const addressed = review ? ` (addresses ${review.split(":")[0]}: ${shorten(review.replace(/^Review \d+:\s*/, ""), 60)})` : "";
      return `Draft ${number}: ${lines[Math.min(number - 1, lines.length - 1)]}${addressed}.`;
    },
  },
  {
    matches: /\b(triage|classif)/i,
    answer: (input) => {
      const category = categoryOf(topicOf(input));
      return `Triage: a ${category} request — “${topicOf(input)}”. The ${category} specialist should take it; not resolved yet.`;
    },
  },
  {
    matches: /\bspecialist\b/i,
    answer: (input) => {
      const category = categoryOf(topicOf(input));
      const step = countAnswersStartingWith(input.messages, /^Specialist step \d+:/) + 1;
      const steps = SPECIALIST_STEPS[category] ?? GENERAL_STEPS;
      const action = steps[Math.min(step - 1, steps.length - 1)];
      return step >= TURNS_UNTIL_FINISHED
        ? `Specialist step ${step}: ${action}. RESOLVED — the customer's ${category} issue is fixed.`
        : `Specialist step ${step}: ${action}. Still open: the next step is needed before the case is fixed.`;
    },
  },
  {
    matches: /\b(wrap[- ]?up|closing|close the case)/i,
    answer: (input) => {
      const steps = assistantAnswers(input.messages)
        .filter((answer) => /^Specialist step \d+:/.test(answer))
        .map((answer) => answer.replace(/^Specialist step \d+:\s*/, "").split(".")[0]);
      return `Wrap-up: “${topicOf(input)}” was handled as a ${categoryOf(topicOf(input))} case in ${steps.length} specialist step${steps.length === 1 ? "" : "s"}: ${steps.join("; ")}. The customer has been told.`;
    },
  },
  {
    matches: /\bdecisions?\b/i,
    answer: (input) => {
      const found = sentencesOf(input).filter((sentence) => /\b(decided|agreed|will|must)\b/i.test(sentence));
      return `Decisions:\n${(found.length > 0 ? found : ["none recorded"]).map((sentence) => `- ${sentence}`).join("\n")}`;
    },
  },
  {
    matches: /\brisks? and open questions\b/i,
    answer: (input) => {
      const found = sentencesOf(input).filter((sentence) => /\b(risk|not ready|slow|needs?|unclear)\b|\?/i.test(sentence));
      return `Risks and open questions:\n${(found.length > 0 ? found : ["none raised"]).map((sentence) => `- ${sentence}`).join("\n")}`;
    },
  },
  {
    matches: /\b(advantage|pros|benefit|arguments for)\b/i,
    answer: (input) => {
      const [first, second] = optionsOf(topicOf(input));
      return `Arguments for ${first}: it needs no setup — one file, no server to run; it is fast for one writer; backups are a file copy; ${second} brings more moving parts than a small team needs.`;
    },
  },
  {
    matches: /\b(drawback|cons|risk|disadvantage|arguments against)\b/i,
    answer: (input) => {
      const [first, second] = optionsOf(topicOf(input));
      return `Arguments against ${first}: one writer at a time; many workers on many machines cannot share it over the network; ${second} scales out and can push changes to listeners.`;
    },
  },
  {
    matches: /\b(action items|next steps|to-?do)/i,
    answer: (input) => {
      const summary = userMessages(input.messages).at(-1) ?? input.lastUser;
      const items = summary
        .split(/(?<=[.;])\s+/)
        .filter((sentence) => /\b(will|must|should|needs?|todo|due|by)\b/i.test(sentence))
        .slice(0, 4)
        .map((sentence) => `- ${shorten(sentence, 100)}`);
      return items.length > 0 ? `Action items:\n${items.join("\n")}` : `Action items:\n- Follow up on: ${shorten(summary, 100)}`;
    },
  },
  {
    matches: /\b(summar|brief|tl;?dr)/i,
    answer: (input) => {
      const source = assistantAnswers(input.messages).at(-1) ?? input.lastUser;
      return `Summary: ${shorten(source.replace(/^[A-Z][a-z-]+( \d+)?:\s*/, ""), 180)}`;
    },
  },
];

/** One sentence per tool result: what a listing held, what a file said, what was written, what a command printed. */
/** A tool result's text: MCP results arrive as `{"text": …}` JSON, built-in ones as JSON or text. */
function resultText(content: string): string {
  try {
    const parsed = JSON.parse(content) as unknown;
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { text?: unknown }).text === "string") return (parsed as { text: string }).text;
  } catch {
    // not JSON: the content is the text
  }
  return content;
}

function toolSummary(input: PersonaInput): string {
  return input.toolResults
    .map(({ name, content }) => ({ name, content: resultText(content) }))
    .map((result) => {
      if (/list_directory|list_workspace_files/.test(result.name)) return `The folder holds: ${shorten(result.content.replace(/\[(FILE|DIR)\]\s*/g, ""), 120)}.`;
      if (/read_text_file|read_file|read_workspace_file/.test(result.name)) return `The file says: ${shorten(result.content, 200)}`;
      if (/write_file|write_workspace_file/.test(result.name)) return `Saved the approved text (${result.name} returned ${shorten(result.content, 120)}).`;
      return `Tool ${result.name} returned ${shorten(result.content, 160)}`;
    })
    .join(" ");
}

/** What an agent without a persona looks at first, chosen by its name (so two branches of a fork differ). */
const ANGLES = [
  "looks at the cost first: the cheapest way that still answers it",
  "looks at the risks first: what could go wrong, and how to notice it early",
  "looks at the evidence first: what is known, and what still needs checking",
  "looks at the next step: the smallest change that moves it forward",
  "looks at the people involved: who needs to know, and who decides",
  "looks at the timing: what has to happen first, and what can wait",
];

/** A stable small hash of a name (FNV-1a). */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

/** The sentence an agent without a persona adds: its name and its angle. */
export function callerAngle(caller: string): string {
  return `${caller} ${ANGLES[nameHash(caller) % ANGLES.length] as string}.`;
}

/** The final answer for one request. */
export function personaAnswer(input: PersonaInput): string {
  const memories = recalledMemories(input.messages);
  if (memories.length > 0 && /\?\s*$/.test(input.lastUser.trim())) {
    return `(scripted demo) From what you told me before: “${shorten(memories[0] as string, 160)}”.`;
  }
  if (input.toolResults.length === 0) {
    const persona = PERSONAS.find((candidate) => candidate.matches.test(input.instructions));
    if (persona) return persona.answer(input);
  }
  const quoted = `(scripted demo) You said: "${shorten(input.lastUser, 160)}".`;
  if (input.toolResults.length > 0) return `${quoted} ${toolSummary(input)}`;
  return input.caller ? `${quoted} ${callerAngle(input.caller)}` : quoted;
}
