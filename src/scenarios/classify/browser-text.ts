/**
 * Text form of what a browser page read back (src/core/engine-session.ts
 * `BrowserReadback`), for the terminal report's engine lines: the facts that
 * tell a threaded wasm run from a single-threaded one and SwiftShader from a
 * GPU, the cold start in its parts, and the page's memory with what it covers.
 */
import type { BrowserReadback } from '../../core/engine-session.js';
import { formatBytes, formatDuration } from '../../core/units.js';

/** Lines printed under a browser engine's environment line (already indented by the caller). */
export function browserLines(b: BrowserReadback, threads: number | null): string[] {
  const webgpu = b.webgpuAdapter ?? `none (${b.webgpuUnavailable ?? 'no adapter'})`;
  const webgl = b.webglRenderer ?? `none (${b.webglUnavailable ?? 'no WebGL2 context'})`;
  const cold = b.coldStart;
  const heap = b.memory.afterOpen;
  const peak = b.memory.peakJsHeapBytes;
  const machine = b.machineCores !== undefined && b.machineCores !== b.hardwareConcurrency ? ` (as the browser reports them; the machine has ${b.machineCores})` : '';
  const sab = b.sharedArrayBuffer === undefined ? '' : ` · SharedArrayBuffer ${b.sharedArrayBuffer ? 'yes' : 'undefined'}`;
  const t = b.timing;
  const timer =
    b.timerResolutionMs === undefined
      ? []
      : [
          `timer: performance.now() step ${b.timerResolutionMs === null ? 'unknown' : formatDuration(b.timerResolutionMs)}${t && t.groupedCalls > 0 ? ` · ${t.groupedCalls} of ${t.calls} calls under 20 steps, timed in groups of up to ${t.largestGroup} and divided` : ' · every call timed alone (each at least 20 steps)'}`,
        ];
  return [
    `page: ${b.browser} · crossOriginIsolated ${b.crossOriginIsolated} · threads used ${threads ?? 'n/a (GPU backend)'} of ${b.hardwareConcurrency} cores${machine} · SIMD ${b.simd ? 'on' : 'off'}${sab}`,
    ...timer,
    `renderer: WebGL ${webgl} · WebGPU ${webgpu}`,
    `cold start: page load ${formatDuration(cold.pageLoadMs)} · runtime init ${cold.runtimeInitMs === null ? 'inside the session build' : formatDuration(cold.runtimeInitMs)} · session build ${formatDuration(cold.sessionBuildMs)} (first inference: the cold-start table)`,
    `page memory: ${heap ? `${formatBytes(heap.bytes)} after open (${heap.source}: ${heap.covers})` : 'not readable'}${peak !== null ? ` · peak main-thread JS heap ${formatBytes(peak)} over the timed calls` : ''}`,
  ];
}
