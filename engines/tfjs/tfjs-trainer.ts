import * as tf from '@tensorflow/tfjs-core';
import type { EngineTrainer, TrainStepResult, TrainerOptions } from '../../src/core/engine.js';
import type { SessionDescription } from '../../src/core/engine-session.js';
import { UserError } from '../../src/core/errors.js';
import type { TensorMap } from '../../src/core/tensor.js';
import type { TrainableGraph } from './trainable-graph.js';
import { ensureTrainingKernels } from './training-kernels.js';

/** PyTorch's Adam epsilon; tfjs defaults to the backend's (1e-7 on float32), which would make the two optimizers differ. */
const ADAM_EPSILON = 1e-8;

function makeOptimizer(options: TrainerOptions): tf.Optimizer {
  return options.optimizer === 'adam'
    ? tf.train.adam(options.learningRate, 0.9, 0.999, ADAM_EPSILON)
    : tf.train.sgd(options.learningRate);
}

/**
 * Mean cross-entropy of `logits` [batch, classes] against class indices, as
 * torch.nn.functional.cross_entropy computes it.
 */
export function meanCrossEntropy(logits: tf.Tensor, labels: Int32Array): tf.Scalar {
  const classes = logits.shape[1] ?? 0;
  const oneHot = tf.cast(tf.oneHot(tf.tensor1d(labels, 'int32'), classes), 'float32');
  return tf.neg(tf.mean(tf.sum(tf.mul(oneHot, tf.logSoftmax(logits, -1)), -1))) as tf.Scalar;
}

/** Checks the graph's output is logits over the labels: rank 2, one row per batch row, a class for every label. */
export function checkLogits(logits: tf.Tensor, outputName: string, batch: number, labels: Int32Array): void {
  const [rows, classes] = logits.shape;
  const maxLabel = labels.reduce((m, l) => Math.max(m, l), 0);
  if (logits.rank !== 2 || rows !== batch || classes === undefined || classes < 2 || maxLabel >= classes) {
    throw new UserError(
      `the model's output '${outputName}' has shape [${logits.shape.join(', ')}], not logits over the labels ([${batch}, ≥${Math.max(2, maxLabel + 1)}] for this batch)`,
      'train a sequence classifier whose first output is logits [batch, labels] (e.g. an *ForSequenceClassification export)',
    );
  }
}

/** The tensor with the fewest elements: reading it back waits for the backend's queued work at the least copying cost. */
function smallest<T extends tf.Tensor>(tensors: readonly T[]): T | undefined {
  return tensors.reduce<T | undefined>((a, t) => (a === undefined || t.size < a.size ? t : a), undefined);
}

/**
 * A TrainableGraph with a loss and an optimizer. Each phase's clock is read
 * only once its results exist: on an asynchronous backend (webgl, webgpu)
 * an op returns as soon as its kernel is queued, so a clock read after the
 * call alone would time the dispatch. The forward phase reads the loss back
 * before its clock stops; the backward phase reads the smallest gradient
 * back, and the update the smallest weight, as they are (no extra kernel:
 * the old `tf.sum` over a weight put a reduction inside the update's time).
 * A backend runs its queued work in order, so one read waits for all of it.
 */
export class TfjsTrainer implements EngineTrainer {
  private optimizer: tf.Optimizer;
  private readonly outputName: string;

  constructor(
    private readonly graph: TrainableGraph,
    private readonly options: TrainerOptions,
    private readonly description: SessionDescription,
    private readonly activate: () => Promise<void>,
  ) {
    this.optimizer = makeOptimizer(options);
    const first = graph.outputs[0];
    if (!first) throw new Error('the graph has no output');
    this.outputName = first.name;
  }

  describe(): SessionDescription {
    return this.description;
  }

  /** Names of the initializers being trained, for tests and reports. */
  trainableNames(): string[] {
    return [...this.graph.variables.keys()];
  }

  async step(inputs: TensorMap, labels: Int32Array): Promise<TrainStepResult> {
    await ensureTrainingKernels();
    await this.activate();
    const vars = [...this.graph.variables.values()];
    let forwardEnd = 0;
    let peakEngineBytes = 0;
    let loss = Number.NaN;
    const start = performance.now();
    const { value, grads } = tf.variableGrads(() => {
      const logits = this.graph.forward(inputs, this.outputName);
      checkLogits(logits, this.outputName, labels.length, labels);
      const lossTensor = meanCrossEntropy(logits, labels);
      // variableGrads takes a synchronous function: the loss is read back synchronously, so the clock stops when it exists.
      loss = lossTensor.dataSync()[0] as number;
      forwardEnd = performance.now();
      // Every forward intermediate is alive here, kept for the backward pass.
      peakEngineBytes = tf.memory().numBytes;
      return lossTensor;
    }, vars);
    await smallest(Object.values(grads))?.data();
    const backwardEnd = performance.now();
    peakEngineBytes = Math.max(peakEngineBytes, tf.memory().numBytes);
    this.optimizer.applyGradients(grads);
    await smallest(vars)?.data();
    const updateEnd = performance.now();
    value.dispose();
    tf.dispose(Object.values(grads));
    return { loss, forwardMs: forwardEnd - start, backwardMs: backwardEnd - forwardEnd, updateMs: updateEnd - backwardEnd, peakEngineBytes };
  }

  async reset(): Promise<void> {
    await this.activate();
    this.graph.resetWeights();
    this.optimizer.dispose();
    this.optimizer = makeOptimizer(this.options);
  }

  memory(): { numTensors: number; numBytes: number } {
    const m = tf.memory();
    return { numTensors: m.numTensors, numBytes: m.numBytes };
  }

  async dispose(): Promise<void> {
    this.optimizer.dispose();
    this.graph.dispose();
  }
}
