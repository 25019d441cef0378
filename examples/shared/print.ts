import { chunkText, type Chunk, type EventSink, type Session } from "../../runtime";

function shorten(text: string, length = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** One line per chunk: index, kind, producer and a short text (tool calls and results spelled out). */
export function chunkLine(chunk: Chunk, index: number): string {
  const who = chunk.meta.producer && chunk.kind !== "tool_result" ? ` (${chunk.meta.producer})` : "";
  let text = chunkText(chunk);
  if (chunk.kind === "assistant" && chunk.payload.tool_calls) {
    const calls = chunk.payload.tool_calls.map((call) => `${call.function.name}(${call.function.arguments})`).join(", ");
    text = `${text ? `${text} ` : ""}calls ${calls}`;
  }
  if (chunk.kind === "tool_result") text = `${chunk.payload.name} -> ${text}`;
  if (chunk.kind === "memory") {
    const { op, uri, count, hits } = chunk.payload;
    text = op === "recall" ? `recall ${hits?.length ?? 0} hit(s): ${text}` : op === "remember" ? `remember ${uri}` : `commit ${count} document(s)`;
  }
  if (chunk.kind === "route") text = `chose ${chunk.payload.chosen} of ${chunk.payload.candidates.length} (reply ${JSON.stringify(text)})`;
  return `  [${index}] ${chunk.kind}${who}: ${shorten(text)}`;
}

/** Prints a session's chunks, lineage and usage. */
export function printSession(title: string, session: Session): void {
  console.log(`${title}: session ${session.id.slice(0, 8)} (${session.lineage.lineage_kind}, ${session.chunks.length} chunks)`);
  session.chunks.toArray().forEach((chunk, index) => console.log(chunkLine(chunk, index)));
  const parents = session.lineage.parent_session_ids.map((id) => id.slice(0, 8)).join(", ");
  console.log(`  lineage: ${session.lineage.lineage_operator} <- [${parents}]`);
  if (session.usage) console.log(`  usage: ${session.usage.prompt_tokens} prompt + ${session.usage.completion_tokens} completion = ${session.usage.total_tokens} tokens`);
}

/** An event sink that writes model deltas to stdout as they stream and notes tool calls on their own lines. */
export function streamToStdout(): EventSink {
  let midLine = false;
  const endLine = (): void => {
    if (midLine) process.stdout.write("\n");
    midLine = false;
  };
  return (event) => {
    if (event.type === "model.delta") {
      process.stdout.write(event.text);
      midLine = true;
    } else if (event.type === "model.response.completed") {
      endLine();
    } else if (event.type === "tool.call.ended") {
      endLine();
      console.log(`  tool ${event.tool} ${event.ok ? "ok" : `failed (${event.error_kind})`} in ${event.duration_ms.toFixed(1)} ms`);
    }
  };
}
