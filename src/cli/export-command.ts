import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readOnnxModel } from '../core/onnx/onnx-decode.js';
import { CellSkip, UserError } from '../core/errors.js';
import { fileSystemError } from '../core/fs-errors.js';
import { stopOnSignals } from './stop-signals.js';
import { aFormat } from '../core/model-formats.js';
import { TextClassification } from '../models/text-classification.js';
import { hasSentenceTransformersFiles, readSentenceTransformersFolder } from '../models/sentence-transformers-folder.js';
import { ExportRefused } from '../models/tf-export/lower-context.js';
import { NATIVE_FORMATS, isNativeFormat } from '../models/tf-export/native-formats.js';
import { stringFlag, type ParsedArgs } from './args.js';

/** Which engines run each format, for the line that says what to do next. */
const ENGINES = { 'graph-model': 'tfjs-node-graph-model,tfjs-wasm-graph-model,tfjs-cpu-graph-model', 'saved-model': 'tfjs-node-saved-model' } as const;

/**
 * What to run instead of a refused export: ONNX Runtime always, and the
 * tfjs translator engines only when they run every op of the graph (an op
 * the exporter refuses is often one the translator lacks too, and those
 * engines would skip the model for the same op).
 */
async function refusalFix(onnxPath: string): Promise<string> {
  const quantized = 'a quantized graph exports from its fp32 model';
  let unsupported: string[];
  try {
    const { tfjsCoverage } = await import('../../engines/tfjs/op-table.js');
    const coverage = tfjsCoverage(await readOnnxModel(onnxPath));
    unsupported = [...coverage.unsupported.map((u) => u.op), ...coverage.dtypeProblems];
  } catch {
    unsupported = ['(the graph could not be read)'];
  }
  if (unsupported.length === 0) return `run the ONNX graph on ONNX Runtime or on the tfjs translator engines (tfjs-node, tfjs-wasm, tfjs-cpu) instead; ${quantized}`;
  return `run the ONNX graph on ONNX Runtime (onnx-cpu, onnx-wasm) instead: the tfjs translator engines lack ${unsupported.slice(0, 3).join(', ')} too; ${quantized}`;
}

/**
 * `inferbench export --model DIR|ID --format graph-model|saved-model --out
 * DIR`: the model's ONNX graph as a tfjs GraphModel or a SavedModel, in a
 * new model folder (config and tokenizer beside it). The folder appears
 * only once complete; an existing non-empty --out is never touched.
 */
export async function exportCommand(args: ParsedArgs): Promise<number> {
  const ref = stringFlag(args, 'model');
  const format = stringFlag(args, 'format');
  const out = stringFlag(args, 'out');
  const usage = 'write inferbench export --model <folder or Hub id> --format graph-model|saved-model --out <new folder>';
  if (ref === undefined) throw new UserError('export needs --model', usage);
  if (format === undefined) throw new UserError('export needs --format', usage);
  if (!isNativeFormat(format)) throw new UserError(`--format ${format} is not a format inferbench exports`, `use one of: ${NATIVE_FORMATS.join(', ')}`);
  if (out === undefined) throw new UserError('export needs --out', usage);
  const target = resolve(out);
  try {
    const link = lstatSync(target, { throwIfNoEntry: false });
    if (link?.isSymbolicLink() && !existsSync(target)) {
      throw new UserError(`--out ${target} is a symbolic link to ${readlinkSync(target)}, which does not exist`, 'name a new folder for --out (export writes a real folder, never through a link)');
    }
    if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
      throw new UserError(`--out ${target} already exists and is not an empty folder`, 'name a new folder (or an empty one): export never overwrites files');
    }
  } catch (err) {
    throw fileSystemError(err, 'read', target, '--out');
  }
  const revision = stringFlag(args, 'revision');
  const model = await new TextClassification(ref, revision ? { revision } : {}).init();
  // The sentence-transformers files are checked before any work: an export carries them whole (copyModelFiles) or not at all.
  if (hasSentenceTransformersFiles(model.dir)) readSentenceTransformersFolder(model.dir);
  let onnxPath: string;
  try {
    onnxPath = model.onnxPath();
  } catch (err) {
    if (err instanceof CellSkip) throw new UserError(`nothing to export: ${err.message}`, 'export takes a model folder with onnx/model.onnx; this one already holds a tfjs format');
    throw err;
  }
  let written;
  // Export has no unit of work to finish: a stop signal removes the temporary folder and exits at once (128 + signo).
  const stop = stopOnSignals('export', { quitAtOnce: true });
  try {
    // The exporter (and the tfjs translator it probes ranks with) loads once the flags are checked.
    const { writeModelFolder } = await import('../models/tf-export/native-export.js');
    written = await writeModelFolder(onnxPath, format, target);
  } catch (err) {
    if (err instanceof ExportRefused) {
      throw new UserError(`cannot export ${model.name} as ${aFormat(format)}: ${err.message}`, await refusalFix(onnxPath));
    }
    throw fileSystemError(err, 'write', target, '--out');
  } finally {
    stop.release();
  }
  process.stdout.write(
    [
      `wrote ${aFormat(format)} of ${model.name} to ${written.dir}`,
      `  ${written.file} (${written.nodes} TensorFlow nodes), from ${onnxPath}`,
      ...written.notes.map((n) => `  note: ${n}`),
      `run it: inferbench run --model ${written.dir} --engines ${ENGINES[format]}`,
      '',
    ].join('\n'),
  );
  return 0;
}
