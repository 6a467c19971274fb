/**
 * The tfjs benchmark page, shared by its three backend entries: the project's
 * own ONNX→tfjs translator (engines/tfjs), bundled for the browser, on the
 * backend the entry registers. The backend is checked after setBackend: a
 * tfjs that fell back to another backend is an error, never a quiet result.
 */
import * as tf from '@tensorflow/tfjs-core';
import { TfjsGraphExecutor } from '../../tfjs/graph-executor.js';
import { parseOnnxModel } from '../../tfjs/onnx-model.js';
import type { TensorMap } from '../../../src/core/tensor.js';
import { fetchBytes, installPage, type PageTensorMap } from './page-common.js';
import type { PageCapabilities, PageLoadRequest } from './protocol.js';

/** What a backend entry adds: how to prepare the backend, and what it can say about itself once active. */
export interface TfjsBackendSetup {
  readonly name: 'wasm' | 'webgl' | 'webgpu';
  readonly packageName: string;
  /** Version the package reports about itself; null where it exports none (the Node side adds the installed one). */
  readonly version: string | null;
  /** Before setBackend: wasm paths and thread count. */
  before(request: PageLoadRequest, caps: PageCapabilities): void;
  /** After setBackend: threads actually used (null on GPU backends), precision, notes. */
  after(caps: PageCapabilities): Promise<{ threads: number | null; precision: 'fp32' | 'fp16'; notes: string[] }>;
}

export function installTfjsPage(setup: TfjsBackendSetup): void {
  let executor: TfjsGraphExecutor | undefined;
  installPage<TensorMap>({
    async load(request, caps) {
      tf.enableProdMode();
      setup.before(request, caps);
      const t0 = performance.now();
      const ok = await tf.setBackend(setup.name);
      await tf.ready();
      const runtimeInitMs = performance.now() - t0;
      const active = tf.getBackend();
      if (!ok || active !== setup.name) throw new Error(`tfjs backend '${setup.name}' failed to initialise in the page (active: ${String(active)}); not falling back`);
      const own = await setup.after(caps);
      const t1 = performance.now();
      executor = new TfjsGraphExecutor(parseOnnxModel(await fetchBytes(request.modelUrl)));
      const sessionBuildMs = performance.now() - t1;
      return {
        backend: active,
        threads: own.threads,
        precision: own.precision,
        versions: { '@tensorflow/tfjs-core': tf.version_core, ...(setup.version ? { [setup.packageName]: setup.version } : {}) },
        notes: ['ONNX graph translated to tfjs ops by inferbench', 'int64 tensors computed as int32 (tfjs has no int64)', ...own.notes],
        runtimeInitMs,
        sessionBuildMs,
      };
    },
    // The translator takes host tensors and reads its outputs back to the CPU (await data()), as in Node.
    prepare: (batch) => batch.tensors as unknown as TensorMap,
    async run(inputs) {
      if (!executor) throw new Error('no model loaded');
      return { outputs: (await executor.run(inputs)) as unknown as PageTensorMap, forwardMs: null };
    },
    memory() {
      const m = tf.memory();
      return { numTensors: m.numTensors, numBytes: m.numBytes };
    },
    async dispose() {
      executor?.dispose();
    },
  });
}
