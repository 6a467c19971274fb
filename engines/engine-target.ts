/**
 * What an engine target means in the engine families' own terms: the
 * format an engine of a target opens, and the built-in engine id that
 * serves a target. Only engines/ reads a target's family; everything above
 * asks the engine (`Engine.format`), and these stay for the engine folders
 * and the public API's deprecated `exportToOnnx`/`exportToTfjs`.
 */
import type { EngineId, EngineTarget, ModelFormat } from '../src/core/engine.js';

/** The format an engine of `target` opens: a native tfjs executor's own, else the ONNX graph. */
export function formatOf(target: EngineTarget): ModelFormat {
  return target.family === 'tfjs' && target.executor !== undefined && target.executor !== 'translator' ? target.executor : 'onnx';
}

/** True for a target that runs on WebGPU (ORT's WebGPU provider, tfjs's WebGPU backend). */
export function onWebGpu(target: EngineTarget): boolean {
  return target.family === 'onnx' ? target.device === 'webgpu' : target.backend === 'webgpu';
}

/** True for a tfjs target that runs the ONNX graph through inferbench's translator. */
export function throughTranslator(target: EngineTarget): boolean {
  return target.family === 'tfjs' && formatOf(target) === 'onnx';
}

/** Engine id served by an export call, the inverse of `Engine.target` (`tfjs-node-saved-model` for the SavedModel executor). */
export function engineIdFor(target: EngineTarget): EngineId {
  if (target.family === 'onnx') return `onnx-${target.device}`;
  const format = formatOf(target);
  return format === 'onnx' ? `tfjs-${target.backend}` : `tfjs-${target.backend}-${format}`;
}

/** What an engine object declares of its target, spread into it: its format and the questions the program asks (`webgpu`, `onnxTranslator`). */
export function declaredBy(target: EngineTarget): { readonly format: ModelFormat; readonly webgpu: boolean; readonly onnxTranslator: boolean } {
  return { format: formatOf(target), webgpu: onWebGpu(target), onnxTranslator: throughTranslator(target) };
}
