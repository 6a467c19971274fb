/**
 * Text forms of an onnxruntime-node session's node placement (read from ORT's
 * profiler, see engines/onnx/ort-placement.ts), shared by the CSV and the
 * terminal report so both say the same thing.
 */
import type { ProviderPlacement } from '../src/core/engine-session.js';

/** Providers by node count, largest first. */
function providersByNodes(placement: ProviderPlacement): [string, { nodes: number; timeUs: number }][] {
  return Object.entries(placement.byProvider).sort(([, a], [, b]) => b.nodes - a.nodes);
}

/** `CPUExecutionProvider:73`, or `CUDAExecutionProvider:60;CPUExecutionProvider:13`: the `ep_nodes` CSV field. */
export function placementNodesField(placement: ProviderPlacement | undefined): string | null {
  if (placement === undefined) return null;
  return providersByNodes(placement).map(([provider, p]) => `${provider}:${p.nodes}`).join(';');
}

/** Op types the CPU provider ran although a GPU provider was asked for, `;`-separated: the `ep_cpu_fallback_ops` field. */
export function cpuFallbackField(placement: ProviderPlacement | undefined): string | null {
  return placement === undefined ? null : placement.cpuFallbackOps.join(';');
}

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–';
}

/**
 * One line for the terminal: each provider's share of nodes and of kernel
 * time, then the CPU-fallback op types, e.g.
 * `CUDAExecutionProvider 82% of nodes, 97% of node time · CPUExecutionProvider 18%, 3% · CPU fallback: Shape, Gather`.
 */
export function placementLine(placement: ProviderPlacement): string {
  const providers = providersByNodes(placement);
  const nodes = providers.reduce((a, [, p]) => a + p.nodes, 0);
  const time = providers.reduce((a, [, p]) => a + p.timeUs, 0);
  const parts = providers.map(([provider, p], i) =>
    i === 0 ? `${provider} ${percent(p.nodes, nodes)} of ${nodes} nodes, ${percent(p.timeUs, time)} of node time` : `${provider} ${percent(p.nodes, nodes)}, ${percent(p.timeUs, time)}`,
  );
  if (placement.cpuFallbackOps.length > 0) parts.push(`CPU fallback: ${placement.cpuFallbackOps.join(', ')}`);
  return parts.join(' · ');
}
