/**
 * Time-ordered ids (`run_0mfz3k8a1c0000x7k2p9qa`): a prefix, the creation time in milliseconds (base 36, fixed
 * width), a counter that keeps ids created in the same millisecond in order, and random characters. Sorting
 * ids as strings sorts them by creation, which the run queue relies on for FIFO order.
 */
import { randomBytes } from "node:crypto";

const TIME_WIDTH = 10;
const COUNTER_WIDTH = 4;
const RANDOM_LENGTH = 8;
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

let lastTime = 0;
let counter = 0;

/** Returns a new id `<prefix>_<time><counter><random>` that sorts after every id this process made before. */
export function newSortableId(prefix: string, now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    counter = 0;
  } else {
    counter += 1;
  }
  const random = Array.from(randomBytes(RANDOM_LENGTH), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  return `${prefix}_${lastTime.toString(36).padStart(TIME_WIDTH, "0")}${counter.toString(36).padStart(COUNTER_WIDTH, "0")}${random}`;
}
