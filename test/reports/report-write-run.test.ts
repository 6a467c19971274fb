import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { UserError } from '../../src/core/errors.js';
import { type WriteFs, writeRunFiles } from '../../reports/write-run.js';
import { buildSampleRun } from '../helpers/sample-run.js';

function systemError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** Real fs, except writeFile fails with `code` for paths that match `failOn`. */
function failingFs(code: string, failOn: RegExp): WriteFs {
  return {
    mkdir: (dir, options) => fsp.mkdir(dir, options),
    writeFile: async (file, data) => {
      if (failOn.test(file)) {
        // A full disk typically fails after creating a partial file.
        await fsp.writeFile(file, 'partial');
        throw systemError(code);
      }
      await fsp.writeFile(file, data);
    },
    rename: (from, to) => fsp.rename(from, to),
    unlink: (file) => fsp.unlink(file),
  };
}

test('writing is atomic: a full disk reports a UserError and keeps the previous results.json', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'inferbench-write-'));
  try {
    const run = buildSampleRun();
    const written = await writeRunFiles(run, dir, { png: false });
    const DATA_FILES = ['results.json', 'results.csv', 'results.parquet', 'results.arrow', 'samples.parquet', 'samples.arrow'];
    assert.deepEqual(written, DATA_FILES.map((f) => path.join(dir, f)));
    const before = await fsp.readFile(path.join(dir, 'results.json'), 'utf8');
    assert.deepEqual(JSON.parse(before), run, 'results.json holds the whole RunRecord');

    const next = { ...run, id: 'a-later-run' };
    const target = path.join(dir, 'results.json');
    await assert.rejects(writeRunFiles(next, dir, { png: false, fs: failingFs('ENOSPC', /results\.json/u) }), (err) => {
      assert.ok(err instanceof UserError);
      assert.equal(err.message, `cannot write ${target}: no space left on device`);
      assert.equal(err.fix, 'free some space, or choose another --out on another disk; files written before this point are intact');
      return true;
    });
    assert.equal(await fsp.readFile(target, 'utf8'), before, 'previous results.json untouched');
    assert.deepEqual((await fsp.readdir(dir)).sort(), [...DATA_FILES].sort(), 'temp file removed');

    await assert.rejects(writeRunFiles(next, dir, { png: false, fs: failingFs('EACCES', /results\.csv/u) }), (err) => {
      assert.ok(err instanceof UserError);
      assert.ok(err.message.includes(path.join(dir, 'results.csv')));
      assert.ok(err.fix?.includes('--out'));
      return true;
    });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
