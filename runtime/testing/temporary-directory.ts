/** A fresh temporary directory for one test: made before `body`, removed (with everything in it) after. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function inTemporaryDirectory(prefix: string, body: (directory: string) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  try {
    await body(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
