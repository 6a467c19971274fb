/**
 * An engine session of a feature-extraction model: the engine's own call,
 * then the model's pooling and normalisation on the host, both inside the
 * timed region. Every engine returns `sentence_embedding` [batch, width],
 * so parity compares the vectors a user would store, and the pooling cost
 * is paid alike by every engine (a transformers.js pipeline that pooled
 * itself returns its vectors as they are).
 */
import type { EngineSession, OpenPhases, PreparedCall, SessionDescription } from '../core/engine-session.js';
import type { TensorMap } from '../core/tensor.js';
import { describePooling, sentenceEmbedding, type PoolingSpec } from './pooling.js';

export class EmbeddingSession implements EngineSession {
  readonly prepareCall?: (inputs: TensorMap) => PreparedCall;
  readonly innerForwardMs?: () => number | null;
  readonly openPhases?: () => OpenPhases;
  readonly memory?: () => { numTensors: number; numBytes: number };
  readonly residentMemory: EngineSession['residentMemory'];

  constructor(
    private readonly inner: EngineSession,
    private readonly pooling: PoolingSpec,
  ) {
    this.residentMemory = inner.residentMemory;
    if (inner.innerForwardMs) this.innerForwardMs = () => inner.innerForwardMs?.() ?? null;
    if (inner.openPhases) this.openPhases = () => inner.openPhases?.() as OpenPhases;
    if (inner.memory) this.memory = () => inner.memory?.() ?? { numTensors: 0, numBytes: 0 };
    const prepare = inner.prepareCall?.bind(inner);
    if (prepare) {
      this.prepareCall = (inputs) => {
        const call = prepare(inputs);
        let pooled: TensorMap = {};
        let poolMs = 0;
        return {
          run: async () => {
            await call.run();
            // Read-back and pooling are the model's post-processing: inside the clock, as on every engine.
            const t0 = performance.now();
            pooled = sentenceEmbedding(call.outputs(), inputs, this.pooling);
            poolMs = performance.now() - t0;
          },
          outputs: () => pooled,
          ...(call.elapsedMs ? { elapsedMs: () => (call.elapsedMs?.() ?? 0) + poolMs } : {}),
        };
      };
    }
  }

  async run(inputs: TensorMap): Promise<TensorMap> {
    return sentenceEmbedding(await this.inner.run(inputs), inputs, this.pooling);
  }

  describe(): SessionDescription {
    const d = this.inner.describe();
    return { ...d, notes: [...(d.notes ?? []), `feature extraction: ${describePooling(this.pooling)}, inside the timed call (on the host after the engine, or by a pipeline that pools itself)`] };
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}
