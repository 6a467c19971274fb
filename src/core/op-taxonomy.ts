/**
 * One vocabulary for every engine's op-level profile (`run --profile`): a
 * frozen table from ONNX op type to an op class, in the manner of
 * transformers.js's `dtypes.js`, so ORT's node events, the translator's
 * per-node times and tfjs kernels (mapped first by `TF_KERNEL_OPS`) sum into
 * the same rows. An op type the table lacks is class `other` and the report
 * names it: a guess would hide where the time went.
 */
import { lookupName, nameTable } from './name-lookup.js';

/** The op classes, in the order every table and chart lists them. */
export const OP_CLASSES = ['matmul', 'attention', 'normalization', 'activation', 'elementwise', 'gather/embedding', 'layout', 'other'] as const;
export type OpClass = (typeof OP_CLASSES)[number];

/**
 * ONNX op type (contrib and inferbench's fused ops too, by bare op type) to
 * its class. Softmax is attention: in a transformer it is the attention's
 * own op, and the fused attention kernels (Attention, MultiHeadAttention,
 * GroupQueryAttention) include it.
 */
export const OP_CLASS_OF = nameTable({
  // matmul
  MatMul: 'matmul', Gemm: 'matmul', MatMulInteger: 'matmul', QLinearMatMul: 'matmul', MatMulNBits: 'matmul', MatMulIntegerToFloat: 'matmul',
  DynamicQuantizeMatMul: 'matmul', FusedMatMul: 'matmul', FusedGemm: 'matmul', Conv: 'matmul', ConvInteger: 'matmul', QLinearConv: 'matmul', Einsum: 'matmul',
  // attention
  Softmax: 'attention', LogSoftmax: 'attention', Attention: 'attention', MultiHeadAttention: 'attention', GroupQueryAttention: 'attention',
  PackedAttention: 'attention', PackedMultiHeadAttention: 'attention', QAttention: 'attention', RotaryEmbedding: 'attention',
  // normalization
  LayerNormalization: 'normalization', SkipLayerNormalization: 'normalization', SimplifiedLayerNormalization: 'normalization',
  SkipSimplifiedLayerNormalization: 'normalization', RMSNormalization: 'normalization', EmbedLayerNormalization: 'normalization',
  LayerNormLastAxis: 'normalization', BatchNormalization: 'normalization', InstanceNormalization: 'normalization', GroupNormalization: 'normalization',
  LpNormalization: 'normalization', ReduceMean: 'normalization',
  // activation
  Gelu: 'activation', FastGelu: 'activation', BiasGelu: 'activation', QuickGelu: 'activation', Relu: 'activation', LeakyRelu: 'activation',
  Sigmoid: 'activation', Tanh: 'activation', Erf: 'activation', Elu: 'activation', Selu: 'activation', Softplus: 'activation',
  HardSigmoid: 'activation', HardSwish: 'activation', Mish: 'activation', Swish: 'activation', SiLU: 'activation', PRelu: 'activation', Clip: 'activation',
  // elementwise
  Add: 'elementwise', Sub: 'elementwise', Mul: 'elementwise', Div: 'elementwise', Pow: 'elementwise', Sqrt: 'elementwise', Reciprocal: 'elementwise',
  Exp: 'elementwise', Log: 'elementwise', Neg: 'elementwise', Abs: 'elementwise', Max: 'elementwise', Min: 'elementwise', Mod: 'elementwise',
  Equal: 'elementwise', Greater: 'elementwise', GreaterOrEqual: 'elementwise', Less: 'elementwise', LessOrEqual: 'elementwise', Not: 'elementwise',
  And: 'elementwise', Or: 'elementwise', Xor: 'elementwise', Where: 'elementwise', Cast: 'elementwise', Floor: 'elementwise', Ceil: 'elementwise',
  Round: 'elementwise', Sign: 'elementwise', IsNaN: 'elementwise', IsInf: 'elementwise', BiasAdd: 'elementwise', Sum: 'elementwise',
  DequantizeLinear: 'elementwise', QuantizeLinear: 'elementwise', DynamicQuantizeLinear: 'elementwise',
  ReduceSum: 'elementwise', ReduceMax: 'elementwise', ReduceMin: 'elementwise', ReduceProd: 'elementwise', ReduceSumSquare: 'elementwise',
  ReduceL2: 'elementwise', ReduceLogSumExp: 'elementwise', ArgMax: 'elementwise', ArgMin: 'elementwise', CumSum: 'elementwise',
  // gather/embedding
  Gather: 'gather/embedding', GatherElements: 'gather/embedding', GatherND: 'gather/embedding', ScatterND: 'gather/embedding',
  ScatterElements: 'gather/embedding', OneHot: 'gather/embedding', TopK: 'gather/embedding',
  // layout
  Transpose: 'layout', Reshape: 'layout', Concat: 'layout', Slice: 'layout', Shape: 'layout', Size: 'layout', Squeeze: 'layout', Unsqueeze: 'layout',
  Flatten: 'layout', Expand: 'layout', Tile: 'layout', Split: 'layout', Identity: 'layout', ConstantOfShape: 'layout', Constant: 'layout',
  Range: 'layout', Pad: 'layout', Trilu: 'layout', NonZero: 'layout', MemcpyToHost: 'layout', MemcpyFromHost: 'layout',
} as const satisfies Record<string, OpClass>);

/** The class of an ONNX op type, and whether the table knew it (an unknown one is `other`, and the report names it). */
export function opClassOf(opType: string): { readonly opClass: OpClass; readonly known: boolean } {
  const found = lookupName(OP_CLASS_OF, opType) as OpClass | undefined;
  return found === undefined ? { opClass: 'other', known: false } : { opClass: found, known: true };
}

/**
 * tfjs kernel name (what `tf.profile` lists for a GraphModel's or SavedModel's
 * run) to the ONNX op type it computes, so tfjs's own executors share the
 * ONNX rows. A kernel the table lacks keeps its own name, and so is `other`.
 */
export const TF_KERNEL_OPS = nameTable({
  MatMul: 'MatMul', BatchMatMul: 'MatMul', BatchMatMulV2: 'MatMul', _FusedMatMul: 'MatMul', Conv2D: 'Conv', FusedConv2D: 'Conv', Einsum: 'Einsum',
  Softmax: 'Softmax', LogSoftmax: 'LogSoftmax',
  Mean: 'ReduceMean', FusedBatchNorm: 'BatchNormalization', FusedBatchNormV3: 'BatchNormalization',
  Relu: 'Relu', Relu6: 'Clip', Elu: 'Elu', Selu: 'Selu', Sigmoid: 'Sigmoid', Tanh: 'Tanh', Erf: 'Erf', LeakyRelu: 'LeakyRelu', Prelu: 'PRelu',
  Softplus: 'Softplus', ClipByValue: 'Clip',
  Add: 'Add', AddV2: 'Add', AddN: 'Sum', BiasAdd: 'Add', Sub: 'Sub', Mul: 'Mul', Multiply: 'Mul', RealDiv: 'Div', Div: 'Div', DivNoNan: 'Div',
  FloorDiv: 'Div', Pow: 'Pow', Sqrt: 'Sqrt', Rsqrt: 'Reciprocal', Reciprocal: 'Reciprocal', Square: 'Mul', SquaredDifference: 'Sub',
  Exp: 'Exp', Log: 'Log', Neg: 'Neg', Abs: 'Abs', Maximum: 'Max', Minimum: 'Min', Equal: 'Equal', NotEqual: 'Equal', Greater: 'Greater',
  GreaterEqual: 'GreaterOrEqual', Less: 'Less', LessEqual: 'LessOrEqual', LogicalNot: 'Not', LogicalAnd: 'And', LogicalOr: 'Or',
  Select: 'Where', SelectV2: 'Where', Cast: 'Cast', Floor: 'Floor', Ceil: 'Ceil', Round: 'Round', Sign: 'Sign', IsNan: 'IsNaN',
  Sum: 'ReduceSum', Max: 'ReduceMax', Min: 'ReduceMin', Prod: 'ReduceProd', ArgMax: 'ArgMax', ArgMin: 'ArgMin', Cumsum: 'CumSum',
  Gather: 'Gather', GatherV2: 'Gather', GatherNd: 'GatherND', ScatterNd: 'ScatterND', OneHot: 'OneHot', TopKV2: 'TopK',
  Transpose: 'Transpose', Reshape: 'Reshape', Concat: 'Concat', ConcatV2: 'Concat', Pack: 'Concat', Unpack: 'Split', Slice: 'Slice',
  StridedSlice: 'Slice', Shape: 'Shape', Size: 'Size', Squeeze: 'Squeeze', ExpandDims: 'Unsqueeze', Tile: 'Tile', Split: 'Split', SplitV: 'Split',
  Identity: 'Identity', Fill: 'ConstantOfShape', ZerosLike: 'ConstantOfShape', OnesLike: 'ConstantOfShape', Range: 'Range', PadV2: 'Pad',
  Pad: 'Pad', MirrorPad: 'Pad', BroadcastTo: 'Expand', BroadcastArgs: 'Shape', Reverse: 'Slice',
} as const);

/** The ONNX op type of a tfjs kernel; the kernel's own name when the table lacks it. */
export function onnxOpOfKernel(kernel: string): string {
  return lookupName(TF_KERNEL_OPS, kernel) ?? kernel;
}
