/**
 * The tfjs family's training (Engine.openTrainer): an ONNX graph translated
 * with its weights as tf.Variables (TrainableGraph), and the loss, optimizer
 * and timed step that train it (TfjsTrainer). The gradients the translation
 * needs beyond tfjs's own are in ./gradient-kernels.ts.
 */
import * as tf from '@tensorflow/tfjs-core';
import { CellSkip, UserError } from '../../src/core/errors.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { feedToTensor } from './graph-executor.js';
import type { OnnxModel, OnnxNode, OnnxTensor, OnnxValueInfo } from '../../src/core/onnx/onnx-decode.js';
import { opHandlerFor } from './op-table.js';
import { isHost, req, toTensor, valueFromOnnxTensor, type OpContext, type OpHandler, type Value } from './op-values.js';
import { NodeAttributes, topologicalOrder } from '../../src/core/onnx/onnx-graph.js';
import { runStep } from './run-plan.js';
import type { EngineTrainer, TrainStepResult, TrainerOptions } from '../../src/core/engine.js';
import type { SessionDescription } from '../../src/core/engine-session.js';
import { embeddingGather, ensureGradientKernels } from './gradient-kernels.js';

/** Gather of rows of a trainable table, with the scatter-add gradient of embeddingGather; ONNX's negative indices wrap first. */
const trainableRowGather: OpHandler = (inputs) => {
  const table = req(inputs, 0) as tf.Tensor;
  const raw = toTensor(req(inputs, 1));
  const idx = raw.dtype === 'int32' ? raw : tf.cast(raw, 'int32');
  const rows = table.shape[0] ?? 0;
  const wrapped = tf.where(tf.less(idx, tf.scalar(0, 'int32')), tf.add(idx, tf.scalar(rows, 'int32')), idx);
  return [embeddingGather(table, wrapped)];
};

/**
 * Which initializers training updates: every float initializer with more
 * than one element. Exports from torch.onnx keep parameters as initializers
 * (a Linear weight may be folded to its transpose, which SGD treats alike),
 * while scalars (mask fill values, 1/sqrt(d) scales) and the like are one
 * element or Constant nodes. tools/export-hf-fixtures.py maps each fixture's
 * initializers to torch parameters and records the list, and
 * test/scenarios/train-loss-matches-pytorch.test.ts checks this rule against it.
 */
export function isTrainableInitializer(t: OnnxTensor): boolean {
  return (t.dtype === 'float32' || t.dtype === 'float16' || t.dtype === 'float64' || t.dtype === 'bfloat16') && t.data.length > 1;
}

interface TrainStep {
  readonly node: OnnxNode;
  readonly handler: OpHandler;
  readonly attrs: NodeAttributes;
  readonly ctx: OpContext;
}

/**
 * An ONNX graph translated to tfjs ops for training. Unlike the inference
 * executor it runs unfused (FusedMatMul and the other fusion patterns have
 * no registered gradients; the LayerNorm and GELU kernels of custom-kernels
 * get theirs in gradient-kernels.ts), keeps no host mirrors of weights (the
 * embedding lookup must be tf.gather so its gradient flows), folds no
 * shape subgraphs (they are host arithmetic, cheap beside a backward pass)
 * and releases nothing during a forward pass: the gradient tape needs the
 * intermediates, and the caller's tf.variableGrads disposes them after.
 */
export class TrainableGraph {
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  /** Trainable weights by initializer name, in graph order. */
  readonly variables = new Map<string, tf.Variable>();
  /** Initial values of the variables, kept so every round restarts from them. */
  private readonly initial = new Map<string, tf.Tensor>();
  private readonly constants = new Map<string, Value>();
  private readonly owned: tf.Tensor[] = [];
  private readonly steps: TrainStep[] = [];

  /** Throws CellSkip for an op the translator lacks, before any weight becomes a tensor. */
  constructor(model: OnnxModel) {
    this.inputs = model.inputs;
    this.outputs = model.outputs;
    for (const node of model.nodes) {
      if (!opHandlerFor(node.opType, node.domain)) throw new CellSkip(`unsupported ONNX op ${node.opType} (node ${node.name})`);
    }
    const order = topologicalOrder(model);
    try {
      for (const [name, t] of model.initializers) {
        if (isTrainableInitializer(t)) {
          const value = toTensor(valueFromOnnxTensor(t));
          this.initial.set(name, value);
          this.owned.push(value);
          const variable = tf.variable(value, true);
          this.variables.set(name, variable);
          this.constants.set(name, variable);
        } else {
          this.addConstant(name, valueFromOnnxTensor(t));
        }
      }
      for (const node of order) {
        const handler = opHandlerFor(node.opType, node.domain) as OpHandler;
        const attrs = new NodeAttributes(node.attributes);
        const ctx = { node, opset: model.opset };
        if (node.opType === 'Constant') {
          const [value] = handler([], attrs, ctx);
          if (!value || !node.outputs[0]) throw new Error(`ONNX node ${node.name} (Constant) produced no value`);
          this.addConstant(node.outputs[0], value);
          continue;
        }
        const rowGather = node.opType === 'Gather' && attrs.int('axis', 0) === 0 && this.variables.has(node.inputs[0] ?? '');
        this.steps.push({ node, handler: rowGather ? trainableRowGather : handler, attrs, ctx });
      }
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  private addConstant(name: string, value: Value): void {
    if (isHost(value)) value.name = name;
    else this.owned.push(value);
    this.constants.set(name, value);
  }

  /**
   * Evaluates the graph and returns output `name` as a tensor. Synchronous,
   * so it can run inside tf.variableGrads; call it inside a tidy, since
   * every intermediate is left for the tape.
   */
  forward(feeds: TensorMap, name: string): tf.Tensor {
    const env = new Map<string, Value>();
    for (const info of this.inputs) env.set(info.name, feedToTensor(info, feeds[info.name]));
    const lookup = (n: string): Value | undefined => env.get(n) ?? this.constants.get(n);
    for (const step of this.steps) {
      const outs = runStep(step, lookup);
      step.node.outputs.forEach((n, i) => {
        const v = outs[i];
        if (n && v !== undefined) env.set(n, v);
      });
    }
    const out = lookup(name);
    if (out === undefined) throw new Error(`graph output '${name}' was not computed`);
    return toTensor(out);
  }

  /** Puts every variable back to its initial value. */
  resetWeights(): void {
    for (const [name, v] of this.variables) v.assign(this.initial.get(name) as tf.Tensor);
  }

  /** Bytes of the trainable weights (float32), for reports. */
  get trainableParameters(): number {
    let n = 0;
    for (const v of this.variables.values()) n += v.size;
    return n;
  }

  dispose(): void {
    for (const v of this.variables.values()) v.dispose();
    this.variables.clear();
    for (const t of this.owned) if (!t.isDisposed) t.dispose();
    this.owned.length = 0;
    this.constants.clear();
    this.initial.clear();
  }
}

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
    await ensureGradientKernels();
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
