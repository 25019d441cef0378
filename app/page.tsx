export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16" data-testid="home">
      <h1 className="text-3xl font-semibold tracking-tight">Rath Studio</h1>
      <p className="mt-4 text-zinc-600 dark:text-zinc-400">
        A Session-centered agent runtime and IDE. Every run is an immutable Session value that carries its conversation,
        sandbox placement, fork/merge lineage, token usage and tool evidence.
      </p>
      <ul className="mt-8 list-disc space-y-2 pl-6 text-sm">
        <li>Runtime SDK: <code>runtime/</code> (Session, Agent, Workflow, Tool, Sandbox, Memory, Selector, Compressor)</li>
        <li>
          Inspect persisted sessions: <code>npx rath inspect FILE.jsonl --json</code>
        </li>
      </ul>
    </main>
  );
}
