import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readAnswer } from '../../engines/webgpu/dawn-adapter.js';

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ib-icd-'));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The reason the probe gives when Dawn found no adapter with this VK_ICD_FILENAMES. */
function reasonWith(icd: string): string {
  const probe = readAnswer({ ok: false, kind: 'no-adapter' }, 'Warning: XDG_RUNTIME_DIR is invalid or not set\n', 'libvulkan.so.1', { VK_ICD_FILENAMES: icd });
  assert.ok(!probe.ok);
  assert.match(probe.enable, /set VK_ICD_FILENAMES to a driver's ICD file/);
  return probe.reason;
}

test('a VK_ICD_FILENAMES naming a directory, a non-ICD file or a missing file is named with what is wrong', async () => {
  const dir = await scratch();
  const notIcd = join(dir, 'notes.json');
  await writeFile(notIcd, '{"hello": 1}');
  const notJson = join(dir, 'readme.txt');
  await writeFile(notJson, 'not json');
  assert.equal(reasonWith(dir), `no Vulkan driver for a GPU (VK_ICD_FILENAMES=${dir} names no ICD file: ${dir} is a directory, not an ICD file (name the driver's .json file in it))`);
  assert.match(reasonWith(notIcd), new RegExp(`${notIcd} is not a Vulkan ICD file \\(no ICD\\.library_path\\)\\)$`));
  assert.match(reasonWith(notJson), /readme\.txt is not a Vulkan ICD file \(not JSON\)\)$/);
  assert.match(reasonWith(`${dir}:/nonexistent/icd.json`), /is a directory, not an ICD file .*; \/nonexistent\/icd\.json does not exist\)$/);
  // An entry that is a driver manifest means the fault is elsewhere: Dawn's own words (never its XDG_RUNTIME_DIR line).
  const icd = join(dir, 'icd.json');
  await writeFile(icd, '{"file_format_version": "1.0.0", "ICD": {"library_path": "./libvk.so"}}');
  assert.equal(reasonWith(`${dir}:${icd}`), 'no Vulkan driver for a GPU (Dawn found no adapter)');
});

test('an unreadable VK_ICD_FILENAMES file is named as unreadable', { skip: process.getuid?.() === 0 ? 'running as root: every file is readable' : false }, async () => {
  const dir = await scratch();
  const icd = join(dir, 'icd.json');
  await writeFile(icd, '{"ICD": {"library_path": "./libvk.so"}}');
  await chmod(icd, 0o000);
  assert.match(reasonWith(icd), /icd\.json cannot be read \(EACCES\)\)$/);
});
