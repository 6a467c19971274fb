import { defaultRegistry } from '../../engines/registry.js';
import { unavailableText, type EngineStatus } from '../core/engine-registry.js';
import type { ParsedArgs } from './args.js';
import type { EngineTarget } from '../core/engine.js';
import { wrap } from '../../reports/text-table.js';
import { reportWidth } from './terminal-width.js';

/** `inferbench engines`: every engine, available or not, with the reason and the fix. */
export async function enginesCommand(args: ParsedArgs): Promise<number> {
  if (args.flags['options'] !== undefined) return (await import('./engine-options-command.js')).engineOptionsCommand(args);
  const statuses = await defaultRegistry.statusAll();
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(statuses.map((s) => ({ id: s.id, description: s.engine?.description ?? null, ...s.availability })), null, 2)}\n`);
    return 0;
  }
  process.stdout.write(`${engineLines(statuses, reportWidth(args)).join('\n')}\n`);
  return 0;
}

/** Node WebGPU engines, by what they serve (no engine id is named in the CLI). */
function isWebGpu(target: EngineTarget): boolean {
  return target.family === 'onnx' ? target.device === 'webgpu' : target.backend === 'webgpu';
}

/**
 * The engine list as text: one entry per engine, its availability, or the
 * reason and the fix, wrapped under the name to fit `width` (a reason names
 * files and commands, often 300 characters and more); `wide` keeps each
 * entry on one line, for grep.
 */
export function engineLines(statuses: readonly EngineStatus[], layout: { readonly width: number; readonly wide: boolean }): string[] {
  const nameWidth = Math.max(...statuses.map((s) => s.id.length));
  const textWidth = Math.max(20, layout.width - nameWidth - 2);
  const lines: string[] = [];
  const entry = (head: string, text: string): void => {
    const pieces = layout.wide ? [text] : wrap(text, textWidth);
    pieces.forEach((piece, i) => lines.push(`${(i === 0 ? head : '').padEnd(nameWidth)}  ${piece}`));
  };
  for (const s of statuses) {
    const adapter = s.availability.available && s.availability.adapter !== undefined ? `; adapter: ${s.availability.adapter.label}` : '';
    entry(
      s.id,
      s.availability.available ? `available (${Object.entries(s.availability.versions).map(([k, v]) => `${k} ${v}`).join(', ')}${adapter})` : unavailableText(s),
    );
  }
  const webgpu = statuses.filter((s) => s.engine !== null && s.engine.runsIn !== 'browser' && isWebGpu(s.engine.target)).map((s) => s.id);
  if (webgpu.length > 0) {
    const note =
      `GPU from npm alone: ${webgpu.join(', ')} (WebGPU in Node, on Dawn over Vulkan: needs libvulkan1 and the GPU's Vulkan driver, nothing beyond npm). ` +
      'onnx-cuda, onnx-tensorrt and tfjs-node-gpu need libraries their npm installs download from outside the registry (see their lines).';
    lines.push('', ...(layout.wide ? [note] : wrap(note, layout.width)));
  }
  return lines;
}
