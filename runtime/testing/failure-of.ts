import { RathError } from "../errors";

/** Awaits a promise that must reject with a RathError and returns that error; anything else throws. */
export async function failureOf(promise: Promise<unknown>): Promise<RathError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof RathError)) throw new Error(`expected a RathError, got ${String(error)}`);
  return error;
}
