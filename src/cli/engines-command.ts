import { defaultRegistry } from '../../engines/registry.js';
import { unavailableText } from '../core/engine-registry.js';
import type { ParsedArgs } from './args.js';
import type { EngineTarget } from '../core/engine.js';

/** `inferbench engines`: every engine, available or not, with the reason and the fix. */
export async function enginesCommand(args: ParsedArgs): Promise<number> {
  const statuses = await defaultRegistry.statusAll();
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(statuses.map((s) => ({ id: s.id, description: s.engine?.description ?? null, ...s.availability })), null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...statuses.map((s) => s.id.length));
  for (const s of statuses) {
    const adapter = s.availability.available && s.availability.adapter !== undefined ? `; adapter: ${s.availability.adapter.label}` : '';
    const versions = s.availability.available
      ? `available (${Object.entries(s.availability.versions).map(([k, v]) => `${k} ${v}`).join(', ')}${adapter})`
      : unavailableText(s);
    process.stdout.write(`${s.id.padEnd(width)}  ${versions}\n`);
  }
  const webgpu = statuses.filter((s) => s.engine !== null && s.engine.runsIn !== 'browser' && isWebGpu(s.engine.target)).map((s) => s.id);
  if (webgpu.length > 0) {
    process.stdout.write(
      `\nGPU from npm alone: ${webgpu.join(', ')} (WebGPU in Node, on Dawn over Vulkan: needs libvulkan1 and the GPU's Vulkan driver, nothing beyond npm). ` +
        'onnx-cuda, onnx-tensorrt and tfjs-node-gpu need libraries their npm installs download from outside the registry (see their lines).\n',
    );
  }
  return 0;
}

/** Node WebGPU engines, by what they serve (no engine id is named in the CLI). */
function isWebGpu(target: EngineTarget): boolean {
  return target.family === 'onnx' ? target.device === 'webgpu' : target.backend === 'webgpu';
}
