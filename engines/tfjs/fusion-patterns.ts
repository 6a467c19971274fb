import type { OnnxAttribute, OnnxNode } from '../../src/core/onnx/onnx-decode.js';

/** What the fusion pass needs to know about the graph beyond its nodes. */
export interface FusionContext {
  /** Dims of a float32 constant (initializer or Constant node), undefined for anything computed. */
  constantDims(name: string): readonly number[] | undefined;
  /** Values of a small constant (scalars, axes), undefined for anything computed or large. */
  constantValues(name: string): readonly number[] | undefined;
  readonly graphOutputs: ReadonlySet<string>;
}

/** Who produces and who reads each value, so matchers can walk a pattern and check nothing else uses its inner values. */
export class DataflowIndex {
  private readonly producers = new Map<string, OnnxNode>();
  private readonly readerMap = new Map<string, OnnxNode[]>();

  constructor(nodes: readonly OnnxNode[], private readonly ctx: FusionContext) {
    for (const n of nodes) {
      for (const o of n.outputs) this.producers.set(o, n);
      for (const i of n.inputs) if (i) this.readerMap.set(i, [...(this.readerMap.get(i) ?? []), n]);
    }
  }

  producer(name: string): OnnxNode | undefined {
    return this.producers.get(name);
  }

  /** Nodes reading `name`; a graph output has an extra invisible reader, so it never counts as single-use. */
  readers(name: string): readonly OnnxNode[] {
    return this.readerMap.get(name) ?? [];
  }

  /** The only reader of `name`, if it has exactly one and is not a graph output. */
  single(name: string): OnnxNode | undefined {
    const r = this.readers(name);
    return r.length === 1 && !this.ctx.graphOutputs.has(name) ? r[0] : undefined;
  }

  /** The scalar value of a size-1 constant. */
  scalar(name: string): number | undefined {
    const v = this.ctx.constantValues(name);
    return v?.length === 1 ? v[0] : undefined;
  }

  /** For a binary node with `known` as one input, the other input. */
  other(node: OnnxNode, known: string): string | undefined {
    if (node.inputs.length !== 2) return undefined;
    if (node.inputs[0] === known) return node.inputs[1];
    if (node.inputs[1] === known) return node.inputs[0];
    return undefined;
  }

  /** For a binary `op` node with one scalar-constant input close to `value`, the other input. */
  withScalar(node: OnnxNode | undefined, op: string, value: number): string | undefined {
    if (!node || node.opType !== op || node.domain !== '' || node.inputs.length !== 2) return undefined;
    const [a, b] = node.inputs as [string, string];
    const near = (n: string): boolean => {
      const s = this.scalar(n);
      return s !== undefined && Math.abs(s - value) <= 1e-6 * Math.max(1, Math.abs(value));
    };
    if (near(b)) return a;
    if (near(a) && (op === 'Mul' || op === 'Add')) return b;
    return undefined;
  }
}

/** A replacement: the nodes a pattern covers and the single node standing for them. */
export interface Fusion {
  readonly covered: readonly OnnxNode[];
  readonly node: OnnxNode;
}

function attrs(entries: Record<string, OnnxAttribute>): Map<string, OnnxAttribute> {
  return new Map(Object.entries(entries));
}

/** True for ReduceMean over the last axis only, keeping dims (axes as attribute before opset 18, as input after). */
function meanOverLastAxis(g: DataflowIndex, ctx: FusionContext, n: OnnxNode | undefined): n is OnnxNode {
  if (!n || n.opType !== 'ReduceMean' || n.domain !== '') return false;
  const keep = n.attributes.get('keepdims');
  if (keep && keep.type === 'int' && keep.value !== 1) return false;
  const attr = n.attributes.get('axes');
  const axes = attr?.type === 'ints' ? attr.value : n.inputs[1] ? ctx.constantValues(n.inputs[1]) : undefined;
  return axes?.length === 1 && axes[0] === -1 && g.readers(n.outputs[0] as string).length === 1;
}

/**
 * LayerNorm as exporters below opset 17 spell it:
 * ReduceMean → Sub → Pow(2) → ReduceMean → Add(eps) → Sqrt → Div → Mul(γ) → Add(β).
 * Returns the node that starts at ReduceMean `r1`, or undefined.
 */
export function matchLayerNorm(g: DataflowIndex, ctx: FusionContext, r1: OnnxNode, fusedDomain: string): Fusion | undefined {
  if (!meanOverLastAxis(g, ctx, r1)) return undefined;
  const x = r1.inputs[0] as string;
  const sub = g.single(r1.outputs[0] as string);
  if (!sub || sub.opType !== 'Sub' || sub.inputs[0] !== x || sub.inputs[1] !== r1.outputs[0]) return undefined;
  const d = sub.outputs[0] as string;
  const dReaders = g.readers(d);
  const pow = dReaders.find((n) => n.opType === 'Pow');
  const div = dReaders.find((n) => n.opType === 'Div');
  if (dReaders.length !== 2 || ctx.graphOutputs.has(d) || !pow || !div || pow.inputs[0] !== d || g.scalar(pow.inputs[1] as string) !== 2) return undefined;
  const r2 = g.single(pow.outputs[0] as string);
  if (!meanOverLastAxis(g, ctx, r2)) return undefined;
  const addEps = g.single(r2.outputs[0] as string);
  const epsName = addEps?.opType === 'Add' ? g.other(addEps, r2.outputs[0] as string) : undefined;
  const eps = epsName !== undefined ? g.scalar(epsName) : undefined;
  if (!addEps || eps === undefined) return undefined;
  const sqrt = g.single(addEps.outputs[0] as string);
  if (!sqrt || sqrt.opType !== 'Sqrt' || g.single(sqrt.outputs[0] as string) !== div || div.inputs[0] !== d || div.inputs[1] !== sqrt.outputs[0]) return undefined;
  const mul = g.single(div.outputs[0] as string);
  const gamma = mul?.opType === 'Mul' ? g.other(mul, div.outputs[0] as string) : undefined;
  if (!mul || gamma === undefined || ctx.constantDims(gamma)?.length !== 1) return undefined;
  const add = g.single(mul.outputs[0] as string);
  const beta = add?.opType === 'Add' ? g.other(add, mul.outputs[0] as string) : undefined;
  if (!add || beta === undefined || ctx.constantDims(beta)?.length !== 1) return undefined;
  return {
    covered: [r1, sub, pow, r2, addEps, sqrt, div, mul, add],
    node: {
      name: `${r1.name}..${add.name}`,
      opType: 'LayerNormLastAxis',
      domain: fusedDomain,
      inputs: [x, gamma, beta],
      outputs: [add.outputs[0] as string],
      attributes: attrs({ epsilon: { type: 'float', value: eps } }),
    },
  };
}

/** The tail both GELU forms share: (1 + f(x)) · x · 0.5, with the 0.5 applied to x first or to the product last. */
function geluTail(g: DataflowIndex, x: string, onePlus: OnnxNode): { covered: OnnxNode[]; out: string } | undefined {
  const m1 = g.single(onePlus.outputs[0] as string);
  if (!m1 || m1.opType !== 'Mul') return undefined;
  const partner = g.other(m1, onePlus.outputs[0] as string);
  if (partner === x) {
    const m2 = g.single(m1.outputs[0] as string);
    if (g.withScalar(m2, 'Mul', 0.5) !== m1.outputs[0]) return undefined;
    return { covered: [m1, m2 as OnnxNode], out: (m2 as OnnxNode).outputs[0] as string };
  }
  const half = partner !== undefined ? g.producer(partner) : undefined;
  if (!half || g.withScalar(half, 'Mul', 0.5) !== x || g.single(partner as string) !== m1) return undefined;
  return { covered: [half, m1], out: m1.outputs[0] as string };
}

/** GELU in erf form, x · 0.5 · (1 + erf(x / √2)), matched from its Erf node. */
export function matchGeluErf(g: DataflowIndex, erf: OnnxNode, fusedDomain: string): Fusion | undefined {
  if (erf.opType !== 'Erf' || erf.domain !== '') return undefined;
  const scaled = erf.inputs[0] as string;
  const pre = g.producer(scaled);
  const x = g.withScalar(pre, 'Div', Math.SQRT2) ?? g.withScalar(pre, 'Mul', Math.SQRT1_2);
  if (!pre || x === undefined || g.single(scaled) !== erf) return undefined;
  const add = g.single(erf.outputs[0] as string);
  if (g.withScalar(add, 'Add', 1) !== erf.outputs[0]) return undefined;
  const tail = geluTail(g, x, add as OnnxNode);
  if (!tail) return undefined;
  return gelu([pre, erf, add as OnnxNode, ...tail.covered], x, tail.out, false, fusedDomain);
}

/** GELU in tanh form (gelu_new: GPT-2, ALBERT), x · 0.5 · (1 + tanh(√(2/π) · (x + 0.044715 · x³))), matched from its Tanh node. */
export function matchGeluTanh(g: DataflowIndex, tanh: OnnxNode, fusedDomain: string): Fusion | undefined {
  if (tanh.opType !== 'Tanh' || tanh.domain !== '') return undefined;
  const scaledIn = tanh.inputs[0] as string;
  const scale = g.producer(scaledIn);
  const inner = g.withScalar(scale, 'Mul', Math.sqrt(2 / Math.PI));
  const sum = inner !== undefined ? g.producer(inner) : undefined;
  if (!scale || !sum || sum.opType !== 'Add' || g.single(scaledIn) !== tanh || g.single(inner as string) !== scale) return undefined;
  const [p, q] = sum.inputs as [string, string];
  const cubicOf = (name: string): { x: string; nodes: OnnxNode[] } | undefined => {
    const mul = g.producer(name);
    const pw = g.withScalar(mul, 'Mul', 0.044715);
    const pow = pw !== undefined ? g.producer(pw) : undefined;
    if (!mul || !pow || pow.opType !== 'Pow' || g.scalar(pow.inputs[1] as string) !== 3 || g.single(name) !== sum || g.single(pw as string) !== mul) return undefined;
    return { x: pow.inputs[0] as string, nodes: [pow, mul] };
  };
  const cubic = cubicOf(q) ?? cubicOf(p);
  const x = cubic && (cubic.x === p || cubic.x === q) ? cubic.x : undefined;
  if (!cubic || x === undefined) return undefined;
  const add = g.single(tanh.outputs[0] as string);
  if (g.withScalar(add, 'Add', 1) !== tanh.outputs[0]) return undefined;
  const tail = geluTail(g, x, add as OnnxNode);
  if (!tail) return undefined;
  return gelu([...cubic.nodes, sum, scale, tanh, add as OnnxNode, ...tail.covered], x, tail.out, true, fusedDomain);
}

function gelu(covered: OnnxNode[], x: string, out: string, tanh: boolean, fusedDomain: string): Fusion {
  const first = covered[0] as OnnxNode;
  return {
    covered,
    node: {
      name: `${first.name}..gelu`,
      opType: 'Gelu',
      domain: fusedDomain,
      inputs: [x],
      outputs: [out],
      attributes: attrs({ approximate: { type: 'string', value: tanh ? 'tanh' : 'none' } }),
    },
  };
}
