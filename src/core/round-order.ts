/**
 * The order in which a round visits the engines of a sweep, shared by every
 * scenario measured in interleaved rounds (`run`, `train`).
 */

/** `items` at round `round`: rotated by `round`, so drift over the sweep hits every engine alike. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  if (items.length === 0) return [];
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
