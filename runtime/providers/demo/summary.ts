/**
 * The demo compressor's summary: the facts, decisions and open tasks of the conversation in a few sentences
 * (sentences with a number, a date, a name of a decision or a task win), plus how many messages it replaces.
 */
import type { ChatMessage } from "../types";
import { shorten } from "./conversation";

const KEY_SENTENCE = /\b(decid|agreed|will|must|should|need|due|deadline|owner|budget|risk|\d)/i;

/** A summary of `said` (the messages before the compressor's request). */
export function summarise(said: readonly ChatMessage[]): string {
  const texts = said.filter((message) => message.role === "user" || message.role === "assistant").map((message) => message.content ?? "");
  const sentences = texts.flatMap((text) => text.split(/(?<=[.!?])\s+|\n+/)).map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
  const key = sentences.filter((sentence) => KEY_SENTENCE.test(sentence));
  const chosen = (key.length > 0 ? key : sentences).slice(0, 6).map((sentence) => shorten(sentence.replace(/^[A-Za-z ]{1,20}:\s+/, ""), 140));
  return `Summary of ${texts.length} message(s): ${chosen.join(" ")}`.trim();
}
