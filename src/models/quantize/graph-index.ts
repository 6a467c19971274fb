/**
 * Look-ups over one decoded graph that every variant writer needs:
 * initializers by name, how many places read a value (nodes and graph
 * outputs, so a weight shared by two nodes is not dropped with the first),
 * and fresh names that collide with nothing in the graph.
 */
import { dimsOf, DT, type GraphProto, type ModelProto, type NodeProto, type TensorProto } from '../../core/onnx/onnx-file.js';

/** Values read inside If/Loop/Scan subgraphs (at any depth): outer initializers they use must stay. */
export function subgraphReads(graph: GraphProto): string[] {
  const out: string[] = [];
  const visit = (g: GraphProto): void => {
    for (const n of g.node ?? []) {
      for (const a of n.attribute ?? []) {
        for (const sub of [...(a.g ? [a.g] : []), ...(a.graphs ?? [])]) {
          for (const inner of sub.node ?? []) out.push(...(inner.input ?? []));
          visit(sub);
        }
      }
    }
  };
  visit(graph);
  return out;
}

/** True when a node of the graph holds a subgraph (If, Loop, Scan). */
export function hasSubgraphs(graph: GraphProto): boolean {
  return (graph.node ?? []).some((n) => (n.attribute ?? []).some((a) => a.g || (a.graphs ?? []).length > 0));
}

export class GraphIndex {
  readonly graph: GraphProto;
  readonly initializers: Map<string, TensorProto>;
  private readonly readers = new Map<string, number>();
  private readonly names = new Set<string>();

  constructor(readonly model: ModelProto) {
    if (!model.graph) throw new Error('ONNX model has no graph');
    this.graph = model.graph;
    this.initializers = new Map((this.graph.initializer ?? []).map((t) => [t.name ?? '', t]));
    for (const n of this.graph.node ?? []) {
      for (const i of n.input ?? []) if (i) this.readers.set(i, (this.readers.get(i) ?? 0) + 1);
      for (const o of n.output ?? []) this.names.add(o);
      if (n.name) this.names.add(n.name);
    }
    for (const o of this.graph.output ?? []) this.readers.set(o.name ?? '', (this.readers.get(o.name ?? '') ?? 0) + 1);
    for (const i of subgraphReads(this.graph)) this.readers.set(i, (this.readers.get(i) ?? 0) + 1);
    for (const v of [...(this.graph.input ?? []), ...(this.graph.output ?? []), ...(this.graph.valueInfo ?? [])]) this.names.add(v.name ?? '');
    for (const name of this.initializers.keys()) this.names.add(name);
  }

  get nodes(): NodeProto[] {
    return this.graph.node ?? [];
  }

  /** A 2-D float32 initializer, or undefined. */
  floatMatrix(name: string): TensorProto | undefined {
    const t = this.initializers.get(name);
    return t && t.dataType === DT.FLOAT && dimsOf(t).length === 2 ? t : undefined;
  }

  /** Places that read `name`: node inputs and graph outputs. */
  readerCount(name: string): number {
    return this.readers.get(name) ?? 0;
  }

  /** `base`, or `base_1`, `base_2`… whichever no value or node of the graph has yet; reserves it. */
  freshName(base: string): string {
    let name = base;
    for (let i = 1; this.names.has(name); i++) name = `${base}_${i}`;
    this.names.add(name);
    return name;
  }

  /** Marks names as taken (outputs of nodes a writer adds). */
  reserve(...names: string[]): void {
    for (const n of names) this.names.add(n);
  }

  /** Drops initializers no node or graph output reads any more (what onnxruntime's clean_initializers does). */
  dropUnusedInitializers(): void {
    const used = new Set<string>();
    for (const n of this.graph.node ?? []) for (const i of n.input ?? []) used.add(i);
    for (const o of this.graph.output ?? []) used.add(o.name ?? '');
    for (const i of subgraphReads(this.graph)) used.add(i);
    this.graph.initializer = (this.graph.initializer ?? []).filter((t) => used.has(t.name ?? ''));
    const kept = new Set((this.graph.initializer ?? []).map((t) => t.name ?? ''));
    // An initializer listed as a graph input (old exporters did) leaves the inputs with it.
    this.graph.input = (this.graph.input ?? []).filter((v) => kept.has(v.name ?? '') || !this.initializers.has(v.name ?? ''));
  }

  addInitializers(tensors: readonly TensorProto[]): void {
    this.graph.initializer = [...(this.graph.initializer ?? []), ...tensors];
    for (const t of tensors) {
      this.initializers.set(t.name ?? '', t);
      this.names.add(t.name ?? '');
    }
  }
}

/** Ops whose presence means a graph is already quantized (or holds quantized weights). */
export const QUANTIZED_OPS = new Set([
  'DynamicQuantizeLinear',
  'QuantizeLinear',
  'DequantizeLinear',
  'MatMulInteger',
  'ConvInteger',
  'QLinearMatMul',
  'QLinearConv',
  'MatMulNBits',
  'MatMulBnb4',
  'MatMulIntegerToFloat',
  'QGemm',
  'DynamicQuantizeMatMul',
  'GatherBlockQuantized',
]);

/**
 * Why a source graph cannot be the fp32 source of a variant, or null when it
 * can: quantized ops, or weights that are not float32.
 */
export function notFp32Reason(model: ModelProto): string | null {
  const graph = model.graph ?? {};
  const counts = new Map<string, number>();
  for (const n of graph.node ?? []) if (QUANTIZED_OPS.has(n.opType ?? '')) counts.set(n.opType ?? '', (counts.get(n.opType ?? '') ?? 0) + 1);
  if (counts.size > 0) return `it is already quantized (${[...counts].map(([op, n]) => `${op} ×${n}`).join(', ')})`;
  const byType = new Map<number, number>();
  for (const t of graph.initializer ?? []) if (dimsOf(t).length === 2) byType.set(t.dataType ?? 0, (byType.get(t.dataType ?? 0) ?? 0) + 1);
  const names: Record<number, string> = { [DT.FLOAT16]: 'float16', [DT.INT8]: 'int8', [DT.UINT8]: 'uint8', [DT.DOUBLE]: 'float64' };
  const other = [...byType].filter(([t]) => t in names);
  if ((byType.get(DT.FLOAT) ?? 0) === 0 && other.length > 0) return `its weights are ${other.map(([t]) => names[t]).join(', ')}, not float32`;
  return null;
}
