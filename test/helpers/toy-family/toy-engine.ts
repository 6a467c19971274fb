/**
 * The toy engine: opens a `toy-json` file (toy-format.ts) and answers each
 * output of the graph with a tensor of its declared shape, the dynamic axes
 * taken from the batch it is given. It measures nothing real; it is the
 * docs' example of an engine family that opens a format of its own, and
 * runs wherever an engine runs (in process, in an isolated child, on a
 * queue worker).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Engine, ResolvedSessionOptions } from '../../../src/core/engine.js';
import type { EngineSession, SessionDescription } from '../../../src/core/engine-session.js';
import { CellSkip } from '../../../src/core/errors.js';
import { hostTensor, type TensorMap } from '../../../src/core/tensor.js';
import { TOY_FORMAT, type ToyGraph } from './toy-format.js';

const VERSIONS = { 'toy-engine': '1.0.0' } as const;

/** An output's dims for a batch: its numbers as declared, a named axis the size of the input's axis at the same place. */
function outputDims(dims: readonly (number | string | null)[], given: readonly number[]): number[] {
  return dims.map((d, i) => (typeof d === 'number' && d > 0 ? d : (given[i] ?? 1)));
}

export function toyEngine(): Engine {
  return {
    id: 'toy',
    format: TOY_FORMAT,
    description: 'toy engine (the engine-family example in docs/development.md): answers each output with its shape from a toy-json file',
    async probe() {
      return { available: true, versions: VERSIONS };
    },
    async open(file: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      const graph = JSON.parse(await readFile(file, 'utf8')) as ToyGraph;
      if (graph.format !== TOY_FORMAT) throw new CellSkip(`${file} is not a toy-json file`);
      const description: SessionDescription = {
        engine: 'toy',
        backend: 'toy',
        executor: 'toy interpreter',
        threads: 1,
        precision: options.precision,
        versions: VERSIONS,
        // Read back from the file the engine opened: which format, written from which graph.
        notes: [`opened ${graph.format} written from ${basename(graph.source)}`],
      };
      return {
        async run(inputs: TensorMap): Promise<TensorMap> {
          const given = Object.values(inputs)[0]?.dims ?? [1];
          const out: Record<string, TensorMap[string]> = {};
          for (const o of graph.outputs) {
            const dims = outputDims(o.dims, given);
            // Each value its index along the last axis: deterministic, and a classifier's argmax is its last label.
            const last = dims[dims.length - 1] ?? 1;
            out[o.name] = hostTensor('float32', dims, Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => i % last));
          }
          return out;
        },
        describe: () => description,
        async dispose() {},
      };
    },
  };
}
