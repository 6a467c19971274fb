import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The layers of the code base, lowest first. A file may import its own
 * folder and any folder of a lower layer, never one of its own layer or
 * above: that keeps the core free of plug-ins and every new part (a
 * launcher, a scenario) inside its own folder.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/core'],
  ['src/hub', 'engines', 'reports'],
  ['datasets'],
  ['src/models'],
  ['src/scenarios'],
  ['src/launchers'],
  ['src/runs'],
  ['src/dashboard'],
  ['src/cli'],
  ['src'], // src/index.ts, the public API
];

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCANNED = ['src', 'engines', 'datasets', 'reports'];
const IMPORT = /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The folder a file belongs to: `src/<sub>` inside src, else its top-level folder. */
function folderOf(file: string): string {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src';
  return parts[0] ?? '';
}

function layerOf(folder: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(folder));
  assert.notEqual(index, -1, `folder ${folder} has no layer: add it to LAYERS in this test and to README's layout`);
  return index;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (!spec) continue;
    out.push(normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))));
  }
  return out;
}

const files = SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)));
const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => t !== f && files.includes(t))]));

/** Strongly connected components with more than one member (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('every import points down the layers (core ← hub, engines, reports ← datasets ← models ← scenarios ← launchers ← runs ← dashboard ← cli)', () => {
  assert.ok(files.length > 100, `expected the source tree under ${ROOT}, found ${files.length} files`);
  const upward: string[] = [];
  for (const [from, targets] of edges) {
    const source = folderOf(from);
    for (const to of targets) {
      const target = folderOf(to);
      if (target !== source && layerOf(target) >= layerOf(source)) upward.push(`${relative(ROOT, from)} → ${relative(ROOT, to)}`);
    }
  }
  assert.deepEqual(upward, [], `imports that point up or sideways:\n${upward.join('\n')}`);
});

test('no import cycle between files', () => {
  assert.deepEqual(cycles(edges).map((c) => c.map((f) => relative(ROOT, f))), []);
});

test('no import cycle between folders', () => {
  const folders = new Map<string, string[]>();
  for (const [from, targets] of edges) {
    const list = folders.get(folderOf(from)) ?? [];
    for (const to of targets) if (folderOf(to) !== folderOf(from)) list.push(folderOf(to));
    folders.set(folderOf(from), list);
  }
  assert.deepEqual(cycles(folders), []);
});

test('the core names no engine: built-in engines register from engines/', () => {
  const core = files.filter((f) => folderOf(f) === 'src/core');
  const naming = core.filter((f) => /['"](onnx-cpu|tfjs-wasm|transformers-js)['"]/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(naming.map((f) => relative(ROOT, f)), []);
});
