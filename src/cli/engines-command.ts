import { defaultRegistry } from '../../engines/registry.js';
import { unavailableText } from '../core/engine-registry.js';
import type { ParsedArgs } from './args.js';

/** `inferbench engines`: every engine, available or not, with the reason and the fix. */
export async function enginesCommand(args: ParsedArgs): Promise<number> {
  const statuses = await defaultRegistry.statusAll();
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(statuses.map((s) => ({ id: s.id, description: s.engine?.description ?? null, ...s.availability })), null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...statuses.map((s) => s.id.length));
  for (const s of statuses) {
    const versions = s.availability.available
      ? `available (${Object.entries(s.availability.versions).map(([k, v]) => `${k} ${v}`).join(', ')})`
      : unavailableText(s);
    process.stdout.write(`${s.id.padEnd(width)}  ${versions}\n`);
  }
  return 0;
}
