/**
 * `inferbench engines --options ID`: an engine's option table, as
 * `--engine-options` checks it, printed from the frozen table the engine
 * registered (engines/<family>/*-options.ts), so the help cannot drift from
 * what the run accepts. Kept apart from engines-command.ts, whose list is
 * its own concern.
 */
import type { EngineRegistry } from '../core/engine-registry.js';
import { allowedValues, engineOptionTable } from '../core/engine-options.js';
import { stringFlag, type ParsedArgs } from './args.js';
import { wrap } from '../../reports/text-table.js';
import { reportWidth } from './terminal-width.js';

/** Prints the table (or JSON with --json); an unknown id is exit 2 naming the engines. */
export async function engineOptionsCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const id = stringFlag(args, 'options') ?? '';
  registry.parseNames([id], '--options');
  const table = Object.values(engineOptionTable(id));
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(table.map((o) => ({ key: o.key, values: allowedValues(o.type), default: o.default, doc: o.doc, applied: o.applied, readBack: o.readBack })), null, 2)}\n`);
    return 0;
  }
  if (table.length === 0) {
    const withOptions = registry.ids().filter((e) => Object.keys(engineOptionTable(e)).length > 0);
    process.stdout.write(`${id} takes no --engine-options: it runs its defaults. Engines with options: ${withOptions.join(', ')}\n`);
    return 0;
  }
  const { width, wide } = reportWidth(args);
  const out = [`${id} options (--engine-options '${id}:key=v1|v2;key2=w'; each combination is its own row):`];
  for (const o of table) {
    out.push('', `${o.key}  ${allowedValues(o.type)}  (default ${o.default === '' ? 'none' : o.default})`);
    for (const [label, text] of [['', o.doc], ['applied: ', o.applied], ['read back: ', o.readBack]] as const) {
      out.push(...(wide ? [`${label}${text}`] : wrap(`${label}${text}`, width - 4)).map((l) => `    ${l}`));
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
