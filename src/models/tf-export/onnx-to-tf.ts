/**
 * ONNX graph → TensorFlow graph. Each ONNX node is lowered by the table of
 * its op (lower-*.ts) into TF ops that tfjs-converter's executor and
 * TensorFlow both run; initializers and Constant nodes become Const nodes
 * (made when first read, so values used only as axes leave none behind);
 * graph inputs become Placeholders with dynamic dims (-1) where ONNX names
 * a symbol; graph outputs are Identity nodes named after them.
 */
import { onnxDTypeFromCode, type OnnxDType, type OnnxModel, type OnnxNode, type OnnxTensor } from '../../core/onnx/onnx-decode.js';
import { NodeAttributes, topologicalOrder } from '../../core/onnx/onnx-graph.js';
import { ExportRefused, tensorInts, type LowerContext, type Lowering, type TfValue } from './lower-context.js';
import { ELEMENTWISE_LOWERINGS } from './lower-elementwise.js';
import { NN_LOWERINGS } from './lower-nn.js';
import { SHAPE_LOWERINGS } from './lower-shape.js';
// The probe runs the graph on the tfjs translator (the engine's one public entry for it, see rank-probe.ts).
import { ProbeFailed, probeRanks } from '../../../engines/tfjs/rank-probe.js';
import { TfGraphBuilder, shape, type, type TfDataType, type TfExportTarget, type TfGraph, type TfSignatureEntry, type TfTensorValue } from './tf-graph.js';

/** Every ONNX op (default domain) the exporter maps to TensorFlow ops. */
export const TF_LOWERINGS: ReadonlyMap<string, Lowering> = new Map(Object.entries({ ...ELEMENTWISE_LOWERINGS, ...SHAPE_LOWERINGS, ...NN_LOWERINGS }));

/** Ops of quantized graphs: the exporter writes float graphs only. */
const QUANTIZED = new Set(['QuantizeLinear', 'DequantizeLinear', 'DynamicQuantizeLinear', 'MatMulInteger', 'QLinearMatMul', 'ConvInteger', 'QLinearConv', 'MatMulNBits']);

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** The TF dtype an ONNX dtype is written as, or why it is not. */
function tfDType(dtype: OnnxDType, target: TfExportTarget, what: string): TfDataType {
  switch (dtype) {
    case 'float32': return 'DT_FLOAT';
    case 'int32': return 'DT_INT32';
    case 'int64': return target === 'saved-model' ? 'DT_INT64' : 'DT_INT32';
    case 'bool': return 'DT_BOOL';
    default: throw new ExportRefused(`${what} has dtype ${dtype}; the exporter writes float32, int32, int64 and bool graphs only (quantized and fp16 graphs are refused)`);
  }
}

/** The ONNX dtype of each output of `node`, from its inputs' dtypes and attributes. */
function outputDtypes(node: OnnxNode, inputs: readonly (OnnxDType | undefined)[]): OnnxDType[] {
  const attrs = new NodeAttributes(node.attributes);
  const first = inputs[0] ?? 'float32';
  switch (node.opType) {
    case 'Shape': case 'Size': case 'ArgMax': case 'ArgMin': return ['int64'];
    case 'Cast': return [onnxDTypeFromCode(attrs.int('to', 1))];
    case 'Equal': case 'Less': case 'LessOrEqual': case 'Greater': case 'GreaterOrEqual': case 'Not': case 'And': case 'Or': case 'Xor': case 'IsNaN': case 'IsInf':
      return ['bool'];
    case 'ConstantOfShape': return [attrs.tensor('value')?.dtype ?? 'float32'];
    case 'Where': return [inputs[1] ?? 'float32'];
    case 'Dropout': return [first, 'bool'];
    case 'LayerNormalization': return [first, 'float32', 'float32'];
    default: return node.outputs.map(() => first);
  }
}

/** The value of a Constant node (its `value` tensor, or value_float(s)/value_int(s)). */
function constantValue(node: OnnxNode): OnnxTensor {
  const attrs = new NodeAttributes(node.attributes);
  const t = attrs.tensor('value');
  if (t) return { ...t, name: node.outputs[0] ?? t.name };
  const name = node.outputs[0] ?? node.name;
  if (attrs.has('value_float')) return { name, dtype: 'float32', dims: [], data: Float32Array.of(attrs.float('value_float', 0)) };
  if (attrs.has('value_int')) return { name, dtype: 'int64', dims: [], data: BigInt64Array.of(BigInt(attrs.int('value_int', 0))) };
  const floats = node.attributes.get('value_floats');
  if (floats?.type === 'floats') return { name, dtype: 'float32', dims: [floats.value.length], data: Float32Array.from(floats.value) };
  const list = attrs.ints('value_ints');
  if (list) return { name, dtype: 'int64', dims: [list.length], data: BigInt64Array.from(list, (v) => BigInt(v)) };
  throw new ExportRefused(`ONNX node ${node.name} (Constant) has no value the exporter reads (value, value_float(s), value_int(s))`);
}

/** What the export wrote besides the graph: notes for the reader (saturated constants, int64 inputs and outputs at the signature). */
export interface ConvertNotes {
  readonly saturated: string[];
  readonly widenedInputs: string[];
  readonly narrowedOutputs: string[];
}

/** An int64 graph output as int32 (a Cast: indices, counts and ids fit; a value beyond int32 would wrap, so the export notes every such output). */
function int64Output(b: TfGraphBuilder, ref: string, name: string, notes: ConvertNotes): string {
  notes.narrowedOutputs.push(name);
  return b.op('Cast', [ref], { SrcT: type('DT_INT64'), DstT: type('DT_INT32'), Truncate: { kind: 'b', value: false } }, `${name}/int32`);
}

/** An ONNX tensor as a TF constant; int64 beyond int32 saturates in a GraphModel (Slice's INT64_MAX ends) and is noted. */
function tfTensor(t: OnnxTensor, target: TfExportTarget, notes: ConvertNotes): TfTensorValue {
  const dtype = tfDType(t.dtype, target, `constant '${t.name}'`);
  const dims = [...t.dims];
  const { data } = t;
  if (dtype === 'DT_FLOAT') return { dtype, dims, data: data instanceof Float32Array ? data : Float32Array.from(data as ArrayLike<number>) };
  if (dtype === 'DT_BOOL') return { dtype, dims, data: Uint8Array.from(data as ArrayLike<number>, (v) => (v ? 1 : 0)) };
  if (dtype === 'DT_INT64') return { dtype, dims, data: data instanceof BigInt64Array ? data : BigInt64Array.from(data as ArrayLike<number>, (v) => BigInt(v)) };
  const out = new Int32Array(data.length);
  let saturated = false;
  for (let i = 0; i < data.length; i++) {
    const n = Number(data[i]);
    out[i] = Math.min(INT32_MAX, Math.max(INT32_MIN, n));
    if (out[i] !== n) saturated = true;
  }
  if (saturated) notes.saturated.push(t.name);
  return { dtype, dims, data: out };
}

/**
 * MatMuls of a linear layer whose only reader is an `Add` of a constant
 * 1-D float bias as wide as the weight: the exporter writes them as one
 * MatMul with BiasAdd (lower-nn.ts `linear`), as a TF Dense layer is.
 */
function foldedBiases(model: OnnxModel, order: readonly OnnxNode[]): Map<OnnxNode, { add: OnnxNode; bias: string }> {
  const constants = new Map<string, OnnxTensor>(model.initializers);
  for (const n of order) if (n.opType === 'Constant' && n.outputs[0]) constants.set(n.outputs[0], constantValue(n));
  const readers = new Map<string, OnnxNode[]>();
  for (const n of order) for (const i of n.inputs) if (i) readers.set(i, [...(readers.get(i) ?? []), n]);
  const outputs = new Set(model.outputs.map((o) => o.name));
  const folded = new Map<OnnxNode, { add: OnnxNode; bias: string }>();
  for (const n of order) {
    const weight = constants.get(n.inputs[1] ?? '');
    const out = n.outputs[0] ?? '';
    const users = readers.get(out) ?? [];
    const add = users[0];
    if (n.opType !== 'MatMul' || weight?.dims.length !== 2 || outputs.has(out) || users.length !== 1 || add?.opType !== 'Add') continue;
    const other = add.inputs[0] === out ? add.inputs[1] : add.inputs[0];
    const bias = constants.get(other ?? '');
    if (bias?.dtype === 'float32' && bias.dims.length === 1 && bias.dims[0] === weight.dims[1] && weight.dtype === 'float32') folded.set(n, { add, bias: other as string });
  }
  return folded;
}

/** The result: the TF graph and what the reader should know about it. */
export interface ConvertResult {
  readonly graph: TfGraph;
  readonly notes: ConvertNotes;
  /** ONNX op types with their counts, as exported. */
  readonly onnxOps: Readonly<Record<string, number>>;
}

/**
 * Why `model` cannot be exported for `target`, without converting it: a
 * node of another domain or a quantized op, an op with no mapping, or a
 * graph input or output of a dtype the format cannot hold; null when the
 * exporter maps every node (what `inspect` reports for the native engines).
 */
export function exportRefusal(model: OnnxModel, target: TfExportTarget): string | null {
  const label = (n: OnnxNode): string => (n.domain && n.domain !== 'ai.onnx' ? `${n.domain}.${n.opType}` : n.opType);
  const quantized = model.nodes.find((n) => QUANTIZED.has(n.opType));
  if (quantized) return `quantized graph (${label(quantized)}, node ${quantized.name}): the exporter writes float graphs only; export the fp32 model`;
  const unmapped = model.nodes.find((n) => (n.domain && n.domain !== 'ai.onnx') || (n.opType !== 'Constant' && !TF_LOWERINGS.has(n.opType)));
  if (unmapped) return `no TensorFlow mapping for ONNX op ${label(unmapped)} (node ${unmapped.name})`;
  try {
    for (const v of [...model.inputs, ...model.outputs]) tfDType(v.dtype, target, `graph ${model.inputs.includes(v) ? 'input' : 'output'} '${v.name}'`);
  } catch (err) {
    return (err as Error).message;
  }
  return null;
}

/**
 * Lowers `model` for `target`. Throws ExportRefused, naming op and node,
 * for anything it cannot write faithfully; nothing is written then.
 */
export async function convertOnnxToTf(model: OnnxModel, target: TfExportTarget, producer: string): Promise<ConvertResult> {
  const order = topologicalOrder(model);
  const refused = exportRefusal(model, target);
  if (refused !== null) throw new ExportRefused(refused);

  let probe: Awaited<ReturnType<typeof probeRanks>>;
  try {
    probe = await probeRanks(model);
  } catch (err) {
    if (err instanceof ProbeFailed) throw new ExportRefused(`cannot measure the graph's ranks: ${err.message}`);
    throw err;
  }
  const b = new TfGraphBuilder();
  const notes: ConvertNotes = { saturated: [], widenedInputs: [], narrowedOutputs: [] };
  const values = new Map<string, TfValue>();
  const onnxTypes = new Map<string, OnnxDType>();
  const index: TfDataType = target === 'saved-model' ? 'DT_INT64' : 'DT_INT32';

  /** A constant whose Const node is made on first read. */
  const lazyConstant = (t: OnnxTensor): TfValue => {
    let ref: string | undefined;
    const tensor = tfTensor(t, target, notes);
    return { get ref() { return (ref ??= b.constant(tensor, t.name)); }, dtype: tensor.dtype, rank: t.dims.length, constant: t };
  };

  const inputs: TfSignatureEntry[] = model.inputs.map((v) => {
    const dtype = tfDType(v.dtype, target, `graph input '${v.name}'`);
    const dims = (v.dims ?? []).map((d) => (typeof d === 'number' ? d : -1));
    // tfjs has no int64: tfjs-node feeds an int64 signature input from an int32 tensor it widens without sign extension
    // (-1 arrives as 4294967295). An int64 input is therefore fed as int32 and widened inside the graph, exactly.
    const fed: TfDataType = dtype === 'DT_INT64' ? 'DT_INT32' : dtype;
    const ref = b.op('Placeholder', [], { dtype: type(fed), shape: shape(dims) }, v.name);
    const widened = fed === dtype ? ref : b.op('Cast', [ref], { SrcT: type(fed), DstT: type(dtype), Truncate: { kind: 'b', value: false } }, `${v.name}/int64`);
    if (fed !== dtype) notes.widenedInputs.push(v.name);
    values.set(v.name, { ref: widened, dtype, rank: probe.ranks.get(v.name) ?? dims.length });
    onnxTypes.set(v.name, v.dtype);
    return { key: v.name, tensor: `${ref}:0`, dtype: fed, shape: dims };
  });
  for (const [name, t] of model.initializers) {
    values.set(name, lazyConstant(t));
    onnxTypes.set(name, t.dtype);
  }

  const biases = foldedBiases(model, order);
  const absorbed = new Set([...biases.values()].map((f) => f.add));
  const shared = new Map<string, string>();
  const counts: Record<string, number> = {};
  for (const node of order) {
    counts[node.opType] = (counts[node.opType] ?? 0) + 1;
    // An Add folded into its MatMul: its output was set when the MatMul was lowered.
    if (absorbed.has(node)) continue;
    if (node.opType === 'Constant') {
      const t = constantValue(node);
      values.set(node.outputs[0] ?? '', lazyConstant(t));
      onnxTypes.set(node.outputs[0] ?? '', t.dtype);
      continue;
    }
    const lowering = TF_LOWERINGS.get(node.opType) as Lowering;
    const inTypes = node.inputs.map((n) => (n ? onnxTypes.get(n) : undefined));
    const outTypes = outputDtypes(node, inTypes);
    const input = (i: number): TfValue | undefined => {
      const name = node.inputs[i];
      if (!name) return undefined;
      const v = values.get(name);
      if (!v) throw new ExportRefused(`ONNX node ${node.name} (${node.opType}) reads '${name}', which nothing produced`);
      return v;
    };
    const ctx: LowerContext = {
      node,
      b,
      attrs: new NodeAttributes(node.attributes),
      opset: model.opset,
      target,
      index,
      input(i) {
        const v = input(i);
        if (!v) throw new ExportRefused(`ONNX node ${node.name} (${node.opType}): input ${i} is required but missing`);
        return v;
      },
      optional: input,
      constInts: (i) => tensorInts(input(i)?.constant),
      probedInts: (i) => probe.ints.get(node.inputs[i] ?? ''),
      outRank(j) {
        const r = probe.ranks.get(node.outputs[j] ?? '');
        if (r === undefined) throw new ExportRefused(`ONNX node ${node.name} (${node.opType}): the rank of output ${j} is unknown`);
        return r;
      },
      outDtype: (j) => tfDType(outTypes[j] ?? 'float32', target, `output ${j} of ONNX node ${node.name} (${node.opType})`),
      constantOf: (t) => b.constant(tfTensor(t, target, notes), t.name),
      shared(key, make) {
        let ref = shared.get(key);
        if (ref === undefined) shared.set(key, (ref = make()));
        return ref;
      },
      ...(biases.has(node) ? { bias: values.get(biases.get(node)?.bias ?? '') } : {}),
      hint: (suffix) => (suffix ? `${node.name}/${suffix}` : node.name),
    };
    let refs: string[];
    try {
      refs = lowering(ctx);
    } catch (err) {
      if (err instanceof ExportRefused) throw err;
      throw new ExportRefused(`ONNX node ${node.name} (${node.opType}) could not be lowered: ${(err as Error).message}`);
    }
    const folded = biases.get(node);
    const outputs = folded ? folded.add.outputs : node.outputs;
    outputs.forEach((o, j) => {
      const ref = refs[j];
      if (!o || ref === undefined) return;
      values.set(o, { ref, dtype: ctx.outDtype(j), rank: probe.ranks.get(o) ?? null });
      onnxTypes.set(o, outTypes[j] ?? 'float32');
    });
  }

  const outputs: TfSignatureEntry[] = model.outputs.map((v) => {
    const produced = values.get(v.name);
    if (!produced) throw new ExportRefused(`graph output '${v.name}' is produced by no node`);
    // tfjs has no int64: tfjs-node hands an int64 output back as a BigInt64Array under dtype 'int32', warning on every
    // call. Int64 outputs therefore leave the graph as int32; int64 stays everywhere inside.
    const value = produced.dtype === 'DT_INT64' ? { ...produced, dtype: 'DT_INT32' as const, ref: int64Output(b, produced.ref, v.name, notes) } : produced;
    const ref = b.op('Identity', [value.ref], { T: type(value.dtype) }, v.name);
    // The declared dims, unless the probe measured another rank (ONNX Runtime does not check outputs' declared shapes; TF does).
    const declared = v.dims?.map((d) => (typeof d === 'number' ? d : -1));
    const dims = declared && (value.rank === null || declared.length === value.rank) ? declared : new Array<number>(value.rank ?? 0).fill(-1);
    return { key: v.name, tensor: `${ref}:0`, dtype: value.dtype, shape: dims };
  });
  return { graph: { target, nodes: b.nodes, inputs, outputs, producer }, notes, onnxOps: counts };
}
