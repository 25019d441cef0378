/** How a measure is repeated: warm-up runs are discarded, the median of the timed runs is reported. */
export interface Repetition {
  warmups: number;
  repeats: number;
}

/** The kept samples of a repeated measure, with their median and range. */
export interface Samples {
  median: number;
  min: number;
  max: number;
  values: number[];
}

/** The median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list: expected at least one sample");
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Median, minimum and maximum of a non-empty list of samples. */
export function summarise(values: readonly number[]): Samples {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values: [...values] };
}

/**
 * Runs `sample` (which returns one measured value) `warmups` times without keeping the result, then `repeats`
 * times, and returns the kept samples.
 */
export async function samplesOf(repetition: Repetition, sample: () => number | Promise<number>): Promise<Samples> {
  for (let i = 0; i < repetition.warmups; i++) await sample();
  const values: number[] = [];
  for (let i = 0; i < repetition.repeats; i++) values.push(await sample());
  return summarise(values);
}

/**
 * Warm-up until the samples stop getting faster: discarded samples in blocks of `block`, until a block's median is
 * at most `tolerance` (a fraction) below the previous block's, after at least `minBlocks` and at most `maxBlocks`.
 */
export interface SteadyWarmUp {
  block: number;
  minBlocks: number;
  maxBlocks: number;
  tolerance: number;
}

/** Kept samples after a steady warm-up, with the first (cold) sample of the measure and how many were discarded. */
export interface SteadySamples extends Samples {
  first: number;
  warmups: number;
}

/** Whether `block` is no longer faster than `previous`: its median at most `tolerance` below the previous one's. */
export function isSteady(previous: readonly number[], block: readonly number[], tolerance: number): boolean {
  return median(block) >= (1 - tolerance) * median(previous);
}

/**
 * Runs `sample` in discarded blocks until steady (see SteadyWarmUp), then `repeats` times, and returns the kept
 * samples with the first sample taken (the cold one) and the number discarded.
 */
export async function samplesAfterWarmUp(warmUp: SteadyWarmUp, repeats: number, sample: () => number | Promise<number>): Promise<SteadySamples> {
  const discarded: number[] = [];
  let previous: number[] | null = null;
  for (let blocks = 1; blocks <= warmUp.maxBlocks; blocks++) {
    const block: number[] = [];
    for (let i = 0; i < warmUp.block; i++) block.push(await sample());
    discarded.push(...block);
    if (blocks >= warmUp.minBlocks && previous !== null && isSteady(previous, block, warmUp.tolerance)) break;
    previous = block;
  }
  const values: number[] = [];
  for (let i = 0; i < repeats; i++) values.push(await sample());
  return { ...summarise(values), first: discarded[0] ?? (values[0] as number), warmups: discarded.length };
}

/** Microseconds per operation of `operation` run `count` times in a tight loop. */
export function microsecondsPerOperation(count: number, operation: (index: number) => unknown): number {
  let sink: unknown;
  const start = performance.now();
  for (let i = 0; i < count; i++) sink = operation(i);
  const elapsed = performance.now() - start;
  keepAlive(sink);
  return (elapsed * 1000) / count;
}

let kept: unknown;

/** Stops the optimiser from dropping a result that the benchmark never reads. */
export function keepAlive(value: unknown): void {
  kept = value;
}

/** The last value given to keepAlive (read only so the store is observable). */
export function lastKept(): unknown {
  return kept;
}
