import { RathError } from "../errors";
import type { Session } from "../session/session";
import { sandboxBackends, type SandboxBackendRegistry } from "./backends";

/**
 * Binds a session to a sandbox: an unbound session gets a handle opened for its placement (its spec's
 * working_dir, or a fresh temporary directory) and the bound snapshot is returned; a bound one comes back
 * as is. Forks of the result share the handle (refcounted); release the session to give it back.
 */
export async function bindSandbox(session: Session, registry: SandboxBackendRegistry = sandboxBackends): Promise<Session> {
  if (session.handle) return session;
  if (session.placement.backend === null) {
    throw new RathError(
      "invalid_session_operation",
      `session ${session.id} was never placed on a sandbox backend (sandbox_backend null); place it first, e.g. session.to("local")`,
      { details: { session_id: session.id } },
    );
  }
  const backend = registry.get(session.placement.backend);
  const handle = await backend.open(session.placement.spec);
  return session.withHandle(handle);
}
