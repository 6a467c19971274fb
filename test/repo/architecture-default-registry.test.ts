import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The engine registry is passed down as a value: only the program's entry
 * points take the default one (engines/registry.ts, which makes it). A
 * model, a scenario or a run that reached for it would share one global
 * registry (its probes, its plug-in engines) with every caller, and a test
 * or a plug-in could not hand it engines of its own. A bench script makes
 * a registry of the built-ins of its own (`new EngineRegistry(BUILTIN_ENGINE_FACTORIES)`).
 */
const ENTRY_POINTS: readonly string[] = [
  'src/cli/dispatch.ts', // the CLI (every command, the worker among them)
  'src/dashboard/server.ts', // the dashboard server, started by `serve` or from code
  'src/launchers/scenario-child.ts', // the isolated child's entry
  'src/index.ts', // the public API
];
const MOST = 5;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCANNED = ['src', 'engines', 'reports', 'datasets', 'tools'];
const DEFINED_IN = 'engines/registry.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The code of a file without its comments, so a doc comment that names the registry counts for nothing. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

test(`at most ${MOST} files take the default engine registry, each an entry point; the rest are passed it`, () => {
  const users = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .map((file) => relative(ROOT, file).split(sep).join('/'))
    .filter((file) => file !== DEFINED_IN && /\bdefaultRegistry\b/.test(code(readFileSync(join(ROOT, file), 'utf8'))))
    .sort();
  const stray = users.filter((file) => !ENTRY_POINTS.includes(file));
  assert.deepEqual(stray, [], `${stray.join(', ')} take defaultRegistry: take the registry as a value instead (an option, a context, a parameter) from the entry point above`);
  assert.ok(users.length <= MOST, `${users.length} files take defaultRegistry (${users.join(', ')}), at most ${MOST}`);
  assert.deepEqual(users, [...ENTRY_POINTS].sort(), 'every listed entry point takes it (a line here that no longer does goes)');
});
