/** How one call of a round may be scheduled. */
export interface SchedulingClass {
  readonly parallelSafe: boolean;
  /** Calls with equal keys run in order; null is a key of its own. */
  readonly key: string | null;
}

/** A phase of a round: lanes that run concurrently, each lane's call indices in order. */
export type Phase = readonly (readonly number[])[];

/**
 * Splits a round into phases. A call that is not parallel-safe is a phase of its own (a barrier: everything
 * before it finishes first). A run of parallel-safe calls is one phase with one lane per resource key.
 */
export function planPhases(calls: readonly SchedulingClass[]): Phase[] {
  const phases: Phase[] = [];
  let lanes = new Map<string, number[]>();
  let ownLanes: number[][] = [];
  const closePhase = (): void => {
    const phase = [...lanes.values(), ...ownLanes];
    if (phase.length > 0) phases.push(phase.sort((left, right) => (left[0] ?? 0) - (right[0] ?? 0)));
    lanes = new Map();
    ownLanes = [];
  };
  calls.forEach((call, index) => {
    if (!call.parallelSafe) {
      closePhase();
      phases.push([[index]]);
      return;
    }
    if (call.key === null) {
      ownLanes.push([index]);
      return;
    }
    const lane = lanes.get(call.key);
    if (lane) lane.push(index);
    else lanes.set(call.key, [index]);
  });
  closePhase();
  return phases;
}

/** Runs the phases in order, lanes of a phase concurrently, calls of a lane in order; results by call index. */
export async function runPhases<T>(phases: readonly Phase[], count: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  for (const phase of phases) {
    await Promise.all(
      phase.map(async (lane) => {
        for (const index of lane) results[index] = await run(index);
      }),
    );
  }
  return results;
}
