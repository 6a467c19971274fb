/**
 * The WebGPU adapter a Node WebGPU engine ran on, as read back from Dawn,
 * and the one label every view prints for it. A software adapter
 * (SwiftShader, llvmpipe/lavapipe: Vulkan on the CPU) runs the same shaders
 * as a GPU but tens to thousands of times slower, so a row measured on one
 * must never read as a GPU figure: the label says `software adapter
 * (SwiftShader)` wherever the engine's name or backend is printed.
 */

/** What Dawn's `GPUAdapterInfo` says, and what inferbench concludes from it. */
export interface GpuAdapter {
  /** `adapter.info.vendor` (`nvidia`, `google` for SwiftShader). */
  readonly vendor: string;
  /** `adapter.info.architecture` (`ampere`, `swiftshader`). */
  readonly architecture: string;
  /** `adapter.info.device`, often empty. */
  readonly device: string;
  /** `adapter.info.description` (the driver's own name, e.g. `SwiftShader driver 5.0.0`). */
  readonly description: string;
  /** `adapter.info.isFallbackAdapter`: Dawn's own flag for a CPU implementation. */
  readonly fallback: boolean;
  /** A CPU implementation of the GPU API: fallback flag, or a known software driver's name. */
  readonly software: boolean;
  /** What tables, charts and CSV print: `software adapter (SwiftShader)` or `nvidia ampere (NVIDIA H200)`. */
  readonly label: string;
  /** How it was read (the engine's own device, or Dawn's default adapter in a probe process) and what it stands for. */
  readonly source: string;
}

/** Software Vulkan/WebGPU drivers by the name they report, and the name the label gives them. */
const SOFTWARE_DRIVERS: readonly (readonly [RegExp, string])[] = [
  [/swiftshader/i, 'SwiftShader'],
  [/llvmpipe/i, 'llvmpipe'],
  [/lavapipe/i, 'lavapipe'],
  [/warp|microsoft basic render/i, 'WARP'],
];

/** The word every view uses, so a search for it finds every software row. */
export const SOFTWARE_ADAPTER = 'software adapter';

/** The adapter's fields as Dawn gives them (`GPUAdapterInfo`, plain strings; missing ones empty). */
export interface AdapterInfoLike {
  readonly vendor?: unknown;
  readonly architecture?: unknown;
  readonly device?: unknown;
  readonly description?: unknown;
  readonly isFallbackAdapter?: unknown;
}

/** Reads `info` into a GpuAdapter: software when Dawn flags a fallback adapter or the driver's name is a known CPU driver. */
export function describeAdapter(info: AdapterInfoLike, source: string): GpuAdapter {
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const vendor = text(info.vendor);
  const architecture = text(info.architecture);
  const device = text(info.device);
  const description = text(info.description);
  const fallback = info.isFallbackAdapter === true;
  const named = SOFTWARE_DRIVERS.find(([re]) => re.test(`${vendor} ${architecture} ${device} ${description}`));
  const software = fallback || named !== undefined;
  const label = software
    ? `${SOFTWARE_ADAPTER} (${named?.[1] ?? (description || 'CPU')})`
    : `${[vendor, architecture].filter((s) => s !== '').join(' ') || 'unknown GPU'}${description === '' ? '' : ` (${description})`}`;
  return { vendor, architecture, device, description, fallback, software, label, source };
}

/** The suffix a table or chart adds to an engine's name when its adapter is a software one; empty for a GPU or no adapter. */
export function softwareSuffix(adapter: GpuAdapter | undefined): string {
  return adapter?.software === true ? ` · ${adapter.label}` : '';
}

/** ` · software adapter (SwiftShader), not a GPU: a, b` per software adapter any cell's session recorded; empty when none did. */
export function softwareAdapterNote(cells: readonly unknown[]): string {
  const engines = new Map<string, Set<string>>();
  for (const raw of cells) {
    const cell = raw as { readonly engine?: unknown; readonly session?: { readonly adapter?: GpuAdapter } };
    const adapter = cell.session?.adapter;
    if (adapter?.software !== true || typeof cell.engine !== 'string') continue;
    engines.set(adapter.label, (engines.get(adapter.label) ?? new Set<string>()).add(cell.engine));
  }
  return [...engines].map(([label, ids]) => ` · ${label}, not a GPU: ${[...ids].join(', ')}`).join('');
}
