/**
 * The Prisma client better-auth's Prisma adapter is given: the studio's own client, except that every write of the
 * auth models goes through `database.transaction`. On SQLite the studio shares one connection per file, so a write
 * made outside a transaction while another one is open would silently join it (and roll back with it); inside
 * `database.transaction` it takes the write lock first and is retried while another process holds the file
 * (server/db/README.md). Reads go straight to the client, as the studio's own reads do.
 *
 * A row that does not exist keeps Prisma's own error (code P2025): the adapter turns that into "no row".
 */
import type { Database, TransactionClient } from "../db/database";

/** The Prisma models (client property names) better-auth reads and writes; see better-auth.ts for the mapping. */
export const AUTH_MODELS = ["authUser", "authSession", "authAccount", "authVerification"] as const;
type AuthModel = (typeof AUTH_MODELS)[number];

const READS = ["findFirst", "findUnique", "findMany", "count"] as const;
const WRITES = ["create", "update", "updateMany", "upsert", "delete", "deleteMany"] as const;

type Operation = (args: unknown) => Promise<unknown>;
type Delegate = Record<string, Operation>;

function delegateOf(client: unknown, model: AuthModel): Delegate {
  return (client as Record<AuthModel, Delegate>)[model];
}

function isPrismaNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2025";
}

/** Runs one write in its own transaction; a missing row comes back as Prisma's P2025 error, unmapped. */
async function write(database: Database, model: AuthModel, operation: (typeof WRITES)[number], args: unknown): Promise<unknown> {
  const outcome = await database.transaction(async (transaction: TransactionClient) => {
    try {
      return { ok: true as const, value: await delegateOf(transaction, model)[operation]!(args) };
    } catch (error) {
      // Prisma raises P2025 itself (no SQL error), so the transaction is still usable and commits nothing.
      if (isPrismaNotFound(error)) return { ok: false as const, error };
      throw error;
    }
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** A stand-in client for `prismaAdapter` whose writes are serialised through `database.transaction`. */
export function prismaBridgeFor(database: Database): Record<string, unknown> {
  const client = database.client as unknown as Record<string, unknown>;
  const bridge: Record<string, unknown> = {
    // The adapter reads the generated data model to check the schema at start-up.
    _runtimeDataModel: client._runtimeDataModel,
    // Multi-statement operations (the adapter's consume/increment helpers) run in one studio transaction.
    $transaction: (body: (transaction: TransactionClient) => Promise<unknown>) => database.transaction(body),
  };
  for (const model of AUTH_MODELS) {
    const delegate: Delegate = {};
    for (const operation of READS) delegate[operation] = (args) => delegateOf(client, model)[operation]!(args);
    for (const operation of WRITES) delegate[operation] = (args) => write(database, model, operation, args);
    bridge[model] = delegate;
  }
  return bridge;
}
