import { inspectModel, type InspectedValue, type ModelInspection } from '../models/inspect-model.js';
import { formatLabel } from '../core/model-formats.js';
import { parseArchitectures } from '../models/generated/arch-parse.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import { listFlag, repeatedFlag, stringFlag, type ParsedArgs } from './args.js';

function dimsText(v: InspectedValue): string {
  return v.dims ? `[${v.dims.map((d) => d ?? '?').join(', ')}]` : '(no shape declared)';
}

/** Words wrapped to `width` columns after an indent, so long op lists stay readable. */
function wrap(words: readonly string[], indent: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + line.length + 2 + w.length > width) {
      lines.push(line);
      line = w;
    } else {
      line = line ? `${line}  ${w}` : w;
    }
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : `${indent}${l}`)).join('\n');
}

/** The human-readable form of an inspection. */
export function renderInspection(r: ModelInspection): string {
  const pad = '         ';
  const values = (vs: readonly InspectedValue[]): string => vs.map((v) => `${v.name} ${v.dtype} ${dimsText(v)}`).join(`\n${pad}`);
  const width = Math.max(...r.engines.map((e) => e.engine.length));
  const engines = r.engines.map((e) => `  ${e.engine.padEnd(width)}  ${e.canRun ? 'yes' : `no: ${e.reason}`}`);
  return [
    `model    ${r.path} (${(r.sizeBytes / 1024).toFixed(1)} KiB)`,
    // An ONNX graph has an opset; the other formats name themselves.
    r.opset !== null
      ? `opset    ${r.opset} (IR ${r.irVersion}${r.producer ? `, produced by ${r.producer}` : ''})`
      : `format   ${formatLabel(r.format)}${r.producer ? ` (${r.producer})` : ''}`,
    `inputs   ${values(r.inputs)}`,
    `outputs  ${values(r.outputs)}`,
    `ops      ${r.nodeCount} nodes, ${r.ops.length} op types`,
    `${pad}${wrap(r.ops.map((o) => `${o.op} ×${o.count}`), pad)}`,
    'can run here',
    ...engines,
    '',
  ].join('\n');
}

/**
 * `inferbench inspect`: the model's ops and which engines can run it (every
 * engine, or those `--engines` names), for the same models `run` takes
 * (`--model` folders, files and Hub ids, `--config` architectures, else the
 * embedded default), each in turn.
 */
export async function inspectCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  // Checked before any model is generated or fetched, so a typo costs nothing.
  const engines = listFlag(args, 'engines');
  if (engines !== undefined) {
    if (engines.length === 0) throw new UserError('--engines names no engine', 'e.g. --engines onnx-cpu,tfjs-wasm, or leave it out to judge every engine');
    registry.parseNames(engines, '--engines');
  }
  const { modelFolders } = await import('../scenarios/model-plan.js');
  const folders = await modelFolders({
    models: repeatedFlag(args, 'model') ?? [],
    architectures: parseArchitectures(repeatedFlag(args, 'config') ?? []),
    revision: stringFlag(args, 'revision') ?? null,
  });
  const results: ModelInspection[] = [];
  for (const folder of folders) results.push(await inspectModel(folder.path, { registry, ...(engines ? { engines } : {}) }));
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`);
    return 0;
  }
  // Several models: each under its name, as run's rows call it.
  const text = results.map((r, i) => (results.length === 1 ? '' : `== ${folders[i]?.name} (${folders[i]?.source})\n`) + renderInspection(r));
  process.stdout.write(text.join('\n'));
  return 0;
}
