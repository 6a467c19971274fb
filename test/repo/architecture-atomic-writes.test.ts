/**
 * Every output file is written under a temporary name and renamed into
 * place (core/temporaries.ts `replaceFile`, reports/write-run.ts
 * `writeAtomically`), so a full disk or a kill never leaves a truncated
 * file under its final name. A plain writeFile / createWriteStream in the
 * sources is allowed only where listed here, each with why it is whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';

const ALLOWED: Readonly<Record<string, string>> = {
  'src/core/temporaries.ts': 'the helper itself: writes the temporary, then renames',
  'src/core/output-folder.ts': 'a zero-byte probe that the folder is writable, removed at once',
  'src/core/kernel-peak-rss.ts': '/proc/self/clear_refs, not a file',
  'src/launchers/browser/renderer-memory.ts': '/proc/<pid>/clear_refs, not a file',
  'src/hub/hub-cache.ts': 'downloads to a temporary name renamed into place',
  'src/models/generated/generated-model.ts': 'a temporary folder renamed into place whole',
  'src/models/quantize/quantize-cache.ts': 'temporary names renamed into place; quantize.json last',
  'src/models/tf-export/native-export.ts': 'writes inside a .partial folder that is renamed into place whole',
  'engines/browser/launch-script.ts': 'the browsers\' watchdog launch scripts, written under a temporary name and renamed',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('no output file is written with a plain writeFile or createWriteStream outside the atomic helpers', () => {
  const root = packageRoot();
  const offenders = ['src', 'reports', 'engines', 'datasets']
    .flatMap((d) => sources(join(root, d)))
    .map((path) => relative(root, path))
    .filter((rel) => !(rel in ALLOWED) && /\b(writeFile|writeFileSync|createWriteStream|appendFile|appendFileSync)\s*\(/.test(readFileSync(join(root, rel), 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '')));
  assert.deepEqual(offenders, [], `write these through replaceFile / writeAtomically (temporary name, then rename), or list them with why they are whole`);
});
