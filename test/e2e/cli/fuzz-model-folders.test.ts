/**
 * 500 seeded corruptions of model folders (truncations, byte flips, missing
 * files, symlinks in and out, JSON edits) drive the native-folder checks,
 * the model load and `export`: none may end in anything but a UserError (no
 * stack trace), hang, or leave a file outside its folder. Most cases call the
 * checking functions in this process; a small seeded subset spawns the CLI
 * (`export`, and `load` on a broken native folder) end to end.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../../src/core/errors.js';
import { checkNativeFolder } from '../../../src/models/native-folder.js';
import { readNativeSignature } from '../../../src/models/native-signature.js';
import { TextClassification } from '../../../src/models/text-classification.js';
import type { NativeFormat } from '../../../src/models/tf-export/native-formats.js';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { seededRandom } from '../../helpers/job-fuzz.js';
import { exported } from '../../helpers/native-exports.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const CASES = 500;
const CLI_CASES = 4;
const SEED = 0x5eed32;

type Kind = 'graph-model' | 'saved-model' | 'onnx';

/** Every regular file under `dir`, relative. */
function filesOf(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const rel = join(under, name);
    const info = lstatSync(join(dir, rel));
    return info.isDirectory() ? filesOf(dir, rel) : info.isFile() ? [rel] : [];
  });
}

/** Every entry under `dir`, relative, links included (the no-file-outside check). */
function listing(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const rel = join(under, name);
    return lstatSync(join(dir, rel)).isDirectory() ? [rel, ...listing(dir, rel)] : [rel];
  }).sort();
}

/** Applies one seeded corruption to the folder `dir` (a fresh copy); answers what it did, for the message. */
function corrupt(dir: string, outside: string, random: () => number): string {
  const files = filesOf(dir);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const main = files.filter((f) => /model\.json$|\.bin$|saved_model\.pb$|model\.onnx$|tokenizer\.json$|config\.json$/.test(f));
  const file = pick(main.length > 0 && random() < 0.8 ? main : files);
  const path = join(dir, file);
  const size = statSync(path).size;
  switch (Math.floor(random() * 7)) {
    case 0: {
      const keep = Math.floor(random() * size);
      truncateSync(path, keep);
      return `truncated ${file} to ${keep} of ${size} bytes`;
    }
    case 1: {
      const bytes = readFileSync(path);
      const flips = 1 + Math.floor(random() * 8);
      for (let i = 0; i < flips && bytes.length > 0; i++) {
        const at = Math.floor(random() * bytes.length);
        bytes[at] = (bytes[at] as number) ^ (1 + Math.floor(random() * 255));
      }
      writeFileSync(path, bytes);
      return `flipped ${flips} bytes of ${file}`;
    }
    case 2:
      rmSync(path);
      return `removed ${file}`;
    case 3:
      rmSync(path);
      symlinkSync(join(outside, 'secret.bin'), path);
      return `${file} is a link out of the folder`;
    case 4:
      rmSync(path);
      symlinkSync(join(dir, 'no-such-file'), path);
      return `${file} is a dangling link`;
    case 5: {
      rmSync(path);
      mkdirSync(path);
      return `${file} is a folder`;
    }
    default: {
      const json = join(dir, 'model.json');
      if (!existsSync(json)) {
        writeFileSync(path, pick(['{}', '[]', 'null', '{"format":"graph-model"}', '']));
        return `${file} replaced by a bare JSON value`;
      }
      const model = JSON.parse(readFileSync(json, 'utf8')) as { weightsManifest?: { paths: string[]; weights: { shape: number[] }[] }[] };
      const group = model.weightsManifest?.[0];
      const edit = Math.floor(random() * 4);
      if (group && edit === 0) group.paths = ['../../../outside/secret.bin'];
      else if (group && edit === 1) group.paths = [join(outside, 'secret.bin')];
      else if (group && edit === 2 && group.weights[0]) group.weights[0].shape = [Math.floor(random() * 1e6)];
      else delete (model as Record<string, unknown>)[pick(['format', 'modelTopology', 'weightsManifest', 'signature'])];
      writeFileSync(json, JSON.stringify(model));
      return `model.json edited (${edit})`;
    }
  }
}

/** Anything thrown by the checks and the load must be a UserError (one line, a fix, no stack). */
async function checkInProcess(dir: string, kind: Kind): Promise<void> {
  try {
    if (kind !== 'onnx') {
      checkNativeFolder(dir, kind as NativeFormat);
      await readNativeSignature(dir, kind as NativeFormat);
    }
    await new TextClassification(dir).init();
  } catch (err) {
    if (err instanceof UserError) {
      assert.ok(!err.message.includes('\n    at '), err.message);
      return;
    }
    throw err;
  }
}

test(`${CASES} seeded corruptions of model folders: every refusal is a UserError, nothing hangs, nothing is written outside`, { timeout: 300_000 }, async () => {
  const random = seededRandom(SEED);
  const base = testOutputDir('fuzz-model-folders');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.bin'), Buffer.alloc(64, 7));
  const pristine: Record<Kind, string> = {
    'graph-model': (await exported(join(HF_FIXTURES_DIR, 'bert', 'onnx', 'model.onnx'), 'graph-model')).dir,
    'saved-model': (await exported(join(HF_FIXTURES_DIR, 'bert', 'onnx', 'model.onnx'), 'saved-model')).dir,
    onnx: join(HF_FIXTURES_DIR, 'bert'),
  };
  const kinds = Object.keys(pristine) as Kind[];
  const outsideBefore = listing(outside);
  const cliCases = new Set(Array.from({ length: CLI_CASES }, (_, i) => Math.floor(((i + random()) * CASES) / CLI_CASES)));
  const failures: string[] = [];
  for (let n = 0; n < CASES; n++) {
    const kind = kinds[n % kinds.length] as Kind;
    const work = join(base, `case-${n}`);
    const dir = join(work, 'model');
    cpSync(pristine[kind], dir, { recursive: true });
    const what = corrupt(dir, outside, random);
    const label = `case ${n} (${kind}): ${what}`;
    const before = listing(work);
    if (cliCases.has(n)) {
      const args = kind === 'onnx'
        ? ['export', '--model', dir, '--format', n % 2 === 0 ? 'graph-model' : 'saved-model', '--out', join(work, 'exported')]
        : ['load', '--model', dir, '--engines', kind === 'graph-model' ? 'tfjs-cpu-graph-model' : 'tfjs-node-saved-model', '--rates', '5', '--duration', '0.2', '--warmup', '0', '--min-queries', '1', '--no-png', '--no-isolate', '--out', join(work, 'out')];
      const r = await runCli(args, { timeoutMs: 120_000 });
      if (/\n\s+at |internal error/.test(r.stderr)) failures.push(`${label} (CLI): ${r.stderr.split('\n').slice(0, 3).join(' | ')}`);
      if (r.code === null) failures.push(`${label} (CLI): ended by ${r.signal}`);
      const added = listing(work).filter((f) => !before.includes(f) && !/^(exported|out)(\/|$)/.test(f));
      if (added.length > 0) failures.push(`${label} (CLI): files outside its --out: ${added.join(', ')}`);
    } else {
      await checkInProcess(dir, kind).catch((err: unknown) => void failures.push(`${label}: ${err instanceof Error ? err.stack?.split('\n').slice(0, 3).join(' | ') : String(err)}`));
      assert.deepEqual(listing(work), before, `${label}: the checks wrote nothing`);
    }
    assert.deepEqual(listing(outside), outsideBefore, `${label}: nothing written outside`);
    assert.ok(readdirSync(base).every((f) => !f.includes('.partial-') && !f.includes('.tmp-')), label);
    rmSync(work, { recursive: true, force: true });
  }
  assert.deepEqual(failures, [], `${failures.length} cases ended in something other than a UserError`);
  assert.ok(relative(base, outside) === 'outside');
});
