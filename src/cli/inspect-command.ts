import { inspectModel, type InspectedValue, type ModelInspection } from '../models/inspect-model.js';
import { UserError } from '../core/errors.js';
import { FORMAT_LABEL } from '../models/benchmark-model.js';
import { stringFlag, type ParsedArgs } from './args.js';

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
    r.format === 'onnx'
      ? `opset    ${r.opset} (IR ${r.irVersion}${r.producer ? `, produced by ${r.producer}` : ''})`
      : `format   ${FORMAT_LABEL[r.format]}${r.producer ? ` (${r.producer})` : ''}`,
    `inputs   ${values(r.inputs)}`,
    `outputs  ${values(r.outputs)}`,
    `ops      ${r.nodeCount} nodes, ${r.ops.length} op types`,
    `${pad}${wrap(r.ops.map((o) => `${o.op} ×${o.count}`), pad)}`,
    'can run here',
    ...engines,
    '',
  ].join('\n');
}

/** `inferbench inspect --model DIR`: the model's ops and which engines can run it. */
export async function inspectCommand(args: ParsedArgs): Promise<number> {
  const model = stringFlag(args, 'model');
  if (model === undefined) throw new UserError('inspect needs --model', 'write inferbench inspect --model <Hugging Face folder, .onnx file, or a folder with a tfjs model.json or a saved_model.pb>');
  const result = await inspectModel(model);
  process.stdout.write(args.flags['json'] === true ? `${JSON.stringify(result, null, 2)}\n` : renderInspection(result));
  return 0;
}
