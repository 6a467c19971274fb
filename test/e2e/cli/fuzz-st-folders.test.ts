/**
 * 500 seeded corruptions of a sentence-transformers folder's own files
 * (modules.json, 1_Pooling/config.json, sentence_bert_config.json):
 * truncations, byte flips, removals, links out and to nowhere, folders in
 * place of files, and JSON edits of every field inferbench reads. Each
 * must end in a UserError (one line, no stack) or in the pooling the files
 * say; never in a silent change of pooling (the pristine folder's mean +
 * Normalize, unless the case set another on purpose). A few seeded cases
 * run `export` end to end: it refuses, or the exported folder pools as the
 * source does.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../../src/core/errors.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { FeatureExtraction } from '../../../src/models/feature-extraction.js';
import type { PoolingSpec } from '../../../src/models/pooling.js';
import { readSentenceTransformersFolder } from '../../../src/models/sentence-transformers-folder.js';
import { openTextModel } from '../../../src/models/text-task.js';
import { runCli } from '../../helpers/cli.js';
import { seededRandom } from '../../helpers/job-fuzz.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const CASES = 500;
const CLI_CASES = 3;
const SEED = 0x57f01d;
const FILES = ['modules.json', join('1_Pooling', 'config.json'), 'sentence_bert_config.json'];
const PRISTINE: PoolingSpec = { modes: ['mean'], normalize: true };

/** Values a JSON edit puts into a field: right and wrong types, edge numbers. */
const VALUES: readonly unknown[] = [true, false, null, 0, -1, 1, 2.5, 32, 33, 128, 129, 1e9, 'mean', 'cls', '', '32', [], {}];
const POOL_KEYS = ['pooling_mode_cls_token', 'pooling_mode_max_tokens', 'pooling_mode_mean_tokens', 'pooling_mode_mean_sqrt_len_tokens', 'pooling_mode_weightedmean_tokens', 'pooling_mode_lasttoken', 'pooling_mode_median_tokens', 'pooling_mode', 'word_embedding_dimension'];

/** One seeded corruption; answers what it did and the pooling a success must give (null: the pristine one). */
function corrupt(dir: string, outside: string, random: () => number): { what: string; expect: PoolingSpec | null } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const file = pick(FILES);
  const path = join(dir, file);
  switch (Math.floor(random() * 7)) {
    case 0: {
      const size = existsSync(path) ? readFileSync(path).length : 0;
      if (size === 0) writeFileSync(path, '');
      else truncateSync(path, Math.floor(random() * size));
      return { what: `truncated ${file}`, expect: null };
    }
    case 1: {
      if (!existsSync(path)) writeFileSync(path, '{"max_seq_length": 64}');
      const bytes = readFileSync(path);
      for (let i = 0, n = 1 + Math.floor(random() * 6); i < n; i++) {
        const at = Math.floor(random() * bytes.length);
        bytes[at] = (bytes[at] as number) ^ (1 + Math.floor(random() * 255));
      }
      writeFileSync(path, bytes);
      return { what: `flipped bytes of ${file}`, expect: null };
    }
    case 2:
      rmSync(path, { force: true });
      // Without modules.json the folder is a bare transformer with a pooling config: no Normalize, as sentence-transformers reads it.
      return { what: `removed ${file}`, expect: file === 'modules.json' ? { modes: ['mean'], normalize: false } : null };
    case 3:
      rmSync(path, { force: true });
      symlinkSync(join(outside, 'secret.bin'), path);
      return { what: `${file} links out of the folder`, expect: null };
    case 4:
      rmSync(path, { force: true });
      symlinkSync(join(dir, 'no-such-file'), path);
      return { what: `${file} links to nowhere`, expect: null };
    case 5:
      rmSync(path, { force: true });
      mkdirSync(path);
      return { what: `${file} is a folder`, expect: null };
    default: {
      if (file === 'modules.json') {
        const modules = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
        const m = pick(modules);
        const field = pick(['path', 'type', 'idx']);
        const value = pick([...VALUES, '1_Pooling', '2_Normalize', '../outside', '/etc', 'sentence_transformers.models.Dense', 'sentence_transformers.models.Pooling', 'sentence_transformers.models.Normalize']);
        m[field] = value;
        writeFileSync(path, JSON.stringify(modules));
        // Renaming the Normalize module's path, or its index, leaves the pooling as it was; anything else is refused or checked below.
        const normalizeKept = modules.some((x) => x['type'] === 'sentence_transformers.models.Normalize');
        const poolingKept = modules.some((x) => x['type'] === 'sentence_transformers.models.Pooling' && x['path'] === '1_Pooling');
        return { what: `modules.json: ${m['name']}.${field} = ${JSON.stringify(value)}`, expect: normalizeKept && poolingKept ? null : { modes: ['mean'], normalize: normalizeKept } };
      }
      const json = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
      const key = file === 'sentence_bert_config.json' ? pick(['max_seq_length', 'do_lower_case']) : pick(POOL_KEYS);
      const value = pick(VALUES);
      json[key] = value;
      if (key.startsWith('pooling_mode') && value === true && random() < 0.5) json['pooling_mode_mean_tokens'] = false;
      writeFileSync(path, JSON.stringify(json));
      if (file === 'sentence_bert_config.json') return { what: `${file}: ${key} = ${JSON.stringify(value)}`, expect: null };
      // The modes the edited config asks for, by sentence-transformers' own reading; a success must give exactly these.
      const modes = (['cls_token', 'max_tokens', 'mean_tokens', 'mean_sqrt_len_tokens'] as const).filter((k) => json[`pooling_mode_${k}`] === true);
      const names = { cls_token: 'cls', max_tokens: 'max', mean_tokens: 'mean', mean_sqrt_len_tokens: 'mean_sqrt_len' } as const;
      const named = json['pooling_mode'] === 'cls' ? ['cls'] : json['pooling_mode'] === 'mean' ? ['mean'] : [];
      const all = [...new Set([...named, ...modes.map((k) => names[k])])];
      const order = ['cls', 'max', 'mean', 'mean_sqrt_len'];
      return { what: `${file}: ${key} = ${JSON.stringify(value)}`, expect: { modes: order.filter((m) => all.includes(m)) as PoolingSpec['modes'], normalize: true } };
    }
  }
}

test(`${CASES} seeded corruptions of sentence-transformers files: a UserError or the pooling the files say, never a stack, a hang or a silent change of pooling`, { timeout: 300_000 }, async () => {
  const random = seededRandom(SEED);
  const base = testOutputDir('fuzz-st-folders');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.bin'), Buffer.alloc(64, 7));
  const cliCases = new Set(Array.from({ length: CLI_CASES }, (_, i) => Math.floor(((i + random()) * CASES) / CLI_CASES)));
  const failures: string[] = [];
  let refused = 0;
  for (let n = 0; n < CASES; n++) {
    const dir = join(base, `case-${n}`);
    cpSync(ST, dir, { recursive: true });
    const { what, expect } = corrupt(dir, outside, random);
    const label = `case ${n}: ${what}`;
    if (cliCases.has(n)) {
      const out = join(base, `exported-${n}`);
      const r = await runCli(['export', '--model', dir, '--format', 'graph-model', '--out', out], { timeoutMs: 120_000 });
      if (/\n\s+at |internal error/.test(r.stderr) || r.code === null) failures.push(`${label} (export): ${r.stderr.split('\n').slice(0, 3).join(' | ')}`);
      else if (r.code === 0 && JSON.stringify(readSentenceTransformersFolder(out).pooling) !== JSON.stringify(readSentenceTransformersFolder(dir).pooling)) failures.push(`${label} (export): the export pools otherwise than its source`);
      rmSync(out, { recursive: true, force: true });
    } else {
      try {
        const model = await openTextModel(dir);
        const pooling = model instanceof FeatureExtraction ? model.pooling : null;
        if (JSON.stringify(pooling) !== JSON.stringify(expect ?? PRISTINE)) failures.push(`${label}: pooling ${JSON.stringify(pooling)}, the files say ${JSON.stringify(expect ?? PRISTINE)}`);
      } catch (err) {
        if (!(err instanceof UserError)) failures.push(`${label}: ${err instanceof Error ? err.stack?.split('\n').slice(0, 3).join(' | ') : String(err)}`);
        else if (err.message.includes('\n    at ')) failures.push(`${label}: a stack in the message`);
        else refused++;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(failures, [], `${failures.length} of ${CASES} cases`);
  assert.ok(refused > 0 && refused < CASES, `${refused} refused`);
});
