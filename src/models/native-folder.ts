/**
 * A tfjs GraphModel or TensorFlow SavedModel folder, checked before any
 * engine opens it, as ONNX folders are: a missing or short weight shard, a
 * SavedModel without its variables, or a `model.json` that is not a
 * GraphModel otherwise surface after opening as a bare ENOENT, "the tensor
 * should have 65536 values but has 13682", or TensorFlow's "Could not find
 * variable" on the first batch. Each refusal names the file and what is
 * wrong with it. Every file a model names must resolve (links followed)
 * inside the model folder.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UserError } from '../core/errors.js';
import { fileSystemReason } from '../core/fs-errors.js';
import { readRegularBytesSync, readRegularFileSync } from '../core/regular-file.js';
import { NATIVE_FILE, type NativeFormat } from './tf-export/native-formats.js';
import { decodeSavedModel } from './tf-export/tf-proto.js';

const REEXPORT = 'copy the model folder again whole, or re-export it (`inferbench export`)';

/** Bytes per element of each tfjs weights-manifest dtype (a quantized weight's stored dtype wins). */
const DTYPE_BYTES: Readonly<Record<string, number>> = { float32: 4, int32: 4, bool: 1, uint8: 1, uint16: 2, float16: 2, int8: 1, int16: 2, complex64: 8 };

/** Ops that read a SavedModel's variables/ at open time. */
const VARIABLE_OPS = new Set(['VarHandleOp', 'VariableV2', 'Variable', 'RestoreV2', 'ReadVariableOp']);

function refuse(file: string, what: string): UserError {
  return new UserError(`${file} ${what}; refused before opening the model`, REEXPORT);
}

/** True when `target` is `root` or lies under it. */
function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of a file `name` of the model folder `dir` names, refused
 * when it leads outside the folder (by `../`, an absolute path or a link),
 * is missing, or is not a regular file. `by` names the file that names it.
 */
export function fileInModelFolder(dir: string, name: string, by: string): string {
  const root = realpathSync(dir);
  const path = resolve(dir, name);
  if (typeof name !== 'string' || name === '' || name.includes('\0') || !inside(resolve(dir), path)) throw refuse(by, `names ${JSON.stringify(name)}, which is outside the model folder ${dir}`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw refuse(path, 'is a symbolic link to nowhere');
    throw refuse(path, `is named by ${by} but cannot be read: ${fileSystemReason(err)}`);
  }
  if (!inside(root, real)) throw refuse(path, `is a link leading outside the model folder ${dir} (to ${real})`);
  const info = statSync(real);
  if (!info.isFile()) throw refuse(path, 'is not a regular file');
  return real;
}

interface ManifestGroup {
  readonly paths?: unknown;
  readonly weights?: unknown;
}

/** Bytes a manifest group's weights take, or null when a weight has no fixed size (strings). */
function groupBytes(group: ManifestGroup, file: string, index: number): number | null {
  if (!Array.isArray(group.weights)) throw refuse(file, `has weightsManifest[${index}] without a weights list`);
  let total = 0;
  for (const w of group.weights as { name?: unknown; shape?: unknown; dtype?: unknown; quantization?: { dtype?: unknown } }[]) {
    const dtype = String(w?.quantization?.dtype ?? w?.dtype);
    const size = DTYPE_BYTES[dtype];
    if (size === undefined) {
      if (dtype === 'string') return null;
      throw refuse(file, `has weight ${JSON.stringify(w?.name)} of dtype ${dtype}, which tfjs does not read`);
    }
    if (!Array.isArray(w.shape) || !w.shape.every((d) => Number.isInteger(d) && d >= 0)) throw refuse(file, `has weight ${JSON.stringify(w?.name)} without a whole-number shape`);
    total += (w.shape as number[]).reduce((a, b) => a * b, 1) * size;
  }
  return total;
}

function checkGraphModel(dir: string): void {
  const file = join(dir, NATIVE_FILE['graph-model']);
  let json: { format?: unknown; modelTopology?: unknown; weightsManifest?: unknown };
  try {
    json = JSON.parse(readRegularFileSync(file, 'utf8')) as typeof json;
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw refuse(file, `is not readable JSON (${fileSystemReason(err)})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw refuse(file, 'is not a JSON object');
  const missing = (['format', 'modelTopology'] as const).filter((k) => json[k] === undefined || json[k] === null);
  if (missing.length > 0) throw refuse(file, `has no ${missing.join(' and no ')}: it is not a tfjs GraphModel`);
  if (json.weightsManifest === undefined) return;
  if (!Array.isArray(json.weightsManifest)) throw refuse(file, 'has a weightsManifest that is not a list');
  (json.weightsManifest as ManifestGroup[]).forEach((group, i) => {
    if (typeof group !== 'object' || group === null || !Array.isArray(group.paths) || group.paths.length === 0) throw refuse(file, `has weightsManifest[${i}] without paths`);
    let have = 0;
    for (const name of group.paths as unknown[]) {
      if (typeof name !== 'string') throw refuse(file, `has weightsManifest[${i}] naming a path that is not a string`);
      have += statSync(fileInModelFolder(dir, name, file)).size;
    }
    const want = groupBytes(group, file, i);
    if (want !== null && have !== want) {
      const shards = (group.paths as string[]).join(', ');
      throw refuse(join(dir, (group.paths as string[])[0] as string), `${(group.paths as string[]).length > 1 ? `and the other shards of its group (${shards}) hold` : 'holds'} ${have} bytes, but ${NATIVE_FILE['graph-model']}'s weightsManifest needs ${want}: ${have < want ? 'the file is short (truncated)' : 'the file is longer than its manifest says'}`);
    }
  });
}

function checkSavedModel(dir: string): void {
  const file = join(dir, NATIVE_FILE['saved-model']);
  const real = fileInModelFolder(dir, NATIVE_FILE['saved-model'], dir);
  let nodes: readonly { op: string }[];
  try {
    const saved = decodeSavedModel(new Uint8Array(readRegularBytesSync(real)));
    nodes = (saved.meta_graphs ?? []).flatMap((m) => m.graph_def?.node ?? []);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw refuse(file, `is not a readable SavedModel (${(err as Error).message.split('\n')[0]})`);
  }
  if (nodes.length === 0) throw refuse(file, 'holds no graph');
  if (!nodes.some((n) => VARIABLE_OPS.has(n.op))) return;
  // The graph reads variables: TensorFlow restores them from variables/variables.index and its data shards at open time.
  const variables = join(dir, 'variables');
  const info = statSync(variables, { throwIfNoEntry: false });
  if (!info?.isDirectory()) throw refuse(variables, `is missing, but ${file} reads variables from it`);
  fileInModelFolder(dir, join('variables', 'variables.index'), file);
  if (statSync(join(variables, 'variables.index')).size === 0) throw refuse(join(variables, 'variables.index'), 'is empty');
  const shards = readdirSync(variables).filter((f) => /^variables\.data-\d+-of-\d+$/.test(f));
  if (shards.length === 0) throw refuse(variables, `holds no variables.data-*-of-* file, but ${file} reads variables`);
  const of = Number(/-of-(\d+)$/.exec(shards[0] as string)?.[1]);
  if (shards.length !== of) throw refuse(variables, `holds ${shards.length} of the ${of} variables.data shards its names promise`);
  for (const shard of shards) fileInModelFolder(dir, join('variables', shard), file);
}

/** Refuses a native model folder that an engine would fail to open; see the module comment. */
export function checkNativeFolder(dir: string, format: NativeFormat): void {
  FOLDER_CHECKS[format](dir);
}

/** Each format's folder check, by format: a table, so no caller switches on a format's name. */
const FOLDER_CHECKS: Readonly<Record<NativeFormat, (dir: string) => void>> = { 'graph-model': checkGraphModel, 'saved-model': checkSavedModel };
