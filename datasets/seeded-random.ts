/**
 * A small seeded PRNG (mulberry32). `Math.random` cannot be seeded, and both
 * `Dataset.shuffle` and the default-dataset generator must give the same
 * sequence on every machine and Node version for a given seed, so results
 * and the committed data file stay reproducible.
 */
export type RandomSource = () => number;

/**
 * Returns a function yielding floats in [0, 1) determined only by `seed`.
 * Any safe integer is accepted; the high and low 32 bits are mixed so that
 * seeds differing only above bit 32 still give different streams.
 */
export function createRandom(seed: number): RandomSource {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  let state = (seed >>> 0) ^ Math.imul(Math.floor(seed / 0x1_0000_0000) | 0, 0x9e3779b1);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

/** An integer in [0, n), for picking buffer slots and list items. */
export function randomIndex(random: RandomSource, n: number): number {
  return Math.floor(random() * n);
}
