/**
 * Carries a batch's raw texts beside its tensors. Engines that run a whole
 * pipeline (transformers.js tokenizes for itself) need the texts, every other
 * engine the tensors; a symbol key keeps the texts invisible to
 * `Object.entries`, JSON and every tensor consumer, so ONNX feeds and tfjs
 * inputs are unchanged.
 */
import type { TensorMap } from './tensor.js';

const RAW_TEXTS = Symbol.for('inferbench.rawTexts');

/** Returns `inputs` with `texts` attached (same object, for zero copies). */
export function attachTexts(inputs: TensorMap, texts: readonly string[]): TensorMap {
  Object.defineProperty(inputs, RAW_TEXTS, { value: Object.freeze([...texts]), enumerable: false });
  return inputs;
}

/** The texts a model attached to this batch, or undefined when it gave none (synthetic or custom inputs). */
export function textsOf(inputs: TensorMap): readonly string[] | undefined {
  return (inputs as unknown as Record<symbol, readonly string[] | undefined>)[RAW_TEXTS];
}
