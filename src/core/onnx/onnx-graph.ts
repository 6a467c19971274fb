/**
 * Graph-level helpers over a decoded ONNX model that both the tfjs
 * translator (engines/tfjs) and the TensorFlow exporter (src/models/tf-export)
 * need, so neither reaches into the other: node order, and typed access to a
 * node's attributes as the ONNX spec names them.
 */
import type { OnnxAttribute, OnnxModel, OnnxNode, OnnxTensor } from './onnx-decode.js';

/** Orders nodes so each runs after its producers; ONNX requires sorted graphs, but tolerating unsorted ones costs nothing. */
export function topologicalOrder(model: OnnxModel): OnnxNode[] {
  const available = new Set<string>(['', ...model.inputs.map((i) => i.name), ...model.initializers.keys()]);
  const pending = [...model.nodes];
  const order: OnnxNode[] = [];
  while (pending.length > 0) {
    const before = pending.length;
    for (let i = 0; i < pending.length; ) {
      const node = pending[i] as OnnxNode;
      if (node.inputs.every((n) => available.has(n))) {
        order.push(node);
        for (const o of node.outputs) available.add(o);
        pending.splice(i, 1);
      } else {
        i++;
      }
    }
    if (pending.length === before) {
      const node = pending[0] as OnnxNode;
      const missing = node.inputs.find((n) => !available.has(n)) ?? '?';
      throw new Error(`ONNX node ${node.name} (${node.opType}) reads '${missing}', which no input, initializer or node provides`);
    }
  }
  return order;
}

/** Typed, defaulted access to a node's attributes, so handlers read like the ONNX spec. */
export class NodeAttributes {
  constructor(private readonly map: ReadonlyMap<string, OnnxAttribute>) {}

  has(name: string): boolean {
    return this.map.has(name);
  }

  int(name: string, fallback: number): number {
    const a = this.map.get(name);
    if (!a) return fallback;
    if (a.type === 'int' || a.type === 'float') return a.value;
    throw new Error(`attribute ${name} is ${a.type}, expected int`);
  }

  float(name: string, fallback: number): number {
    const a = this.map.get(name);
    if (!a) return fallback;
    if (a.type === 'int' || a.type === 'float') return a.value;
    throw new Error(`attribute ${name} is ${a.type}, expected float`);
  }

  string(name: string, fallback: string): string {
    const a = this.map.get(name);
    if (!a) return fallback;
    if (a.type === 'string') return a.value;
    throw new Error(`attribute ${name} is ${a.type}, expected string`);
  }

  ints(name: string): readonly number[] | undefined {
    const a = this.map.get(name);
    if (!a) return undefined;
    if (a.type === 'ints' || a.type === 'floats') return a.value;
    if (a.type === 'int') return [a.value];
    throw new Error(`attribute ${name} is ${a.type}, expected ints`);
  }

  tensor(name: string): OnnxTensor | undefined {
    const a = this.map.get(name);
    if (!a) return undefined;
    if (a.type === 'tensor') return a.value;
    throw new Error(`attribute ${name} is ${a.type}, expected tensor`);
  }
}
