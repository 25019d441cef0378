import { mkdir, mkdtemp, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { RathError } from "../errors";
import type { SandboxSpec } from "./handle";

/** A workspace directory ready for a handle: its real path and whether the handle must delete it on close. */
export interface PreparedWorkspace {
  readonly hostDir: string;
  readonly owned: boolean;
}

/** Creates the spec's working directory if missing, or a fresh temporary one when the spec names none. */
export async function prepareWorkspace(spec: SandboxSpec | null, temporaryPrefix = "rath-sandbox-"): Promise<PreparedWorkspace> {
  try {
    if (spec?.working_dir) {
      const directory = path.resolve(spec.working_dir);
      await mkdir(directory, { recursive: true });
      return { hostDir: await realpath(directory), owned: false };
    }
    const directory = await mkdtemp(path.join(tmpdir(), temporaryPrefix));
    return { hostDir: await realpath(directory), owned: true };
  } catch (error) {
    throw new RathError("io_error", `cannot prepare sandbox working directory '${spec?.working_dir ?? tmpdir()}': ${(error as Error).message}`, {
      cause: error,
    });
  }
}
