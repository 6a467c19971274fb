/**
 * Post-processing of one batch as a classification server does it: per
 * request, softmax over its logits, the top class and its score, and the
 * response serialised as JSON. Timed as the "post" part of every request's
 * latency, so the report shows what a server pays after the engine.
 */
import type { TensorMap } from '../../core/tensor.js';

/** The responses of a batch of `count` requests, from the first output ([count, classes] logits). */
export function respond(outputs: TensorMap, count: number, labels: readonly string[]): string[] {
  const first = Object.values(outputs)[0];
  if (first === undefined) throw new Error('the model returned no output to post-process');
  const data = first.data as ArrayLike<number | bigint>;
  const classes = count > 0 ? Math.floor(data.length / count) : 0;
  const responses: string[] = [];
  for (let r = 0; r < count; r++) {
    let best = 0;
    let max = -Infinity;
    for (let c = 0; c < classes; c++) {
      const v = Number(data[r * classes + c]);
      if (v > max) {
        max = v;
        best = c;
      }
    }
    let sum = 0;
    for (let c = 0; c < classes; c++) sum += Math.exp(Number(data[r * classes + c]) - max);
    responses.push(JSON.stringify({ label: labels[best] ?? String(best), score: classes > 0 ? 1 / sum : null }));
  }
  return responses;
}
