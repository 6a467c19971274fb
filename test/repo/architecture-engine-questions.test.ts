import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Outside engines/, nothing compares an engine's family or format: the
 * program asks the engine (`Engine.format`, `webgpu`, `onnxTranslator`)
 * and the model (`modelFile(format)`, `openOn(engine, model)`), so a new
 * engine family that opens a format of its own touches its own folder and
 * one registration line, not a switch in every layer above.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCANNED = ['src', 'reports', 'datasets', 'tools'];

/**
 * The one folder outside engines/ that may name a format in a comparison:
 * the writer of the two TensorFlow formats (it is their code, as an engine
 * family's folder is its own), registered in the format table by
 * tf-export/tf-formats.ts.
 */
const FORMAT_WRITERS = ['src/models/tf-export/'];

/** What a family or format switch looks like, each with what to ask instead. */
const SWITCHES: readonly { readonly pattern: RegExp; readonly instead: string; readonly writersMay?: true }[] = [
  { pattern: /\.family\s*[!=]==|[!=]==\s*[\w.?]*\.family\b/, instead: "an engine family comparison: ask the engine (a field on Engine) instead" },
  { pattern: /\.target\??\.(family|device|backend|executor)\b/, instead: "reading an engine target's parts: only engines/ reads a target; ask the engine" },
  { pattern: /\bformatOf\s*\(/, instead: 'formatOf(target): read engine.format, which the engine declares' },
  { pattern: /\bengine\w*\??\.format\s*[!=]==|[!=]==\s*[\w.?]*engine\w*\??\.format\b/i, instead: "comparing an engine's format: hand it to model.modelFile(format) or openOn(engine, model)" },
  { pattern: /\.exportTo(Onnx|Tfjs)\s*\(/, instead: 'a call of a deprecated per-family export method: openOn(engine, model) serves every engine' },
  {
    // A name or a record's `.format` against a format's name; a tfjs model.json's own `format` field (json.format) is the file's marker, not a switch.
    pattern: /(?<![\w.])\w+\s*[!=]==\s*'(onnx|graph-model|saved-model)'|'(onnx|graph-model|saved-model)'\s*[!=]==|\b(?!json\b)\w+\??\.format\s*[!=]==\s*'(onnx|graph-model|saved-model)'/,
    instead: "a switch on a model format's name: look the format up in the format table (core/model-formats.ts: modelFormat, formatLabel) or a table by format",
    writersMay: true,
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('no engine family or format comparison outside engines/: the program asks the engine and the model', () => {
  const found: string[] = [];
  for (const file of SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)))) {
    const name = relative(ROOT, file).split(sep).join('/');
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return;
        for (const s of SWITCHES) if (s.pattern.test(line) && !(s.writersMay && FORMAT_WRITERS.some((w) => name.startsWith(w)))) found.push(`${name}:${i + 1}: ${s.instead}\n    ${line.trim()}`);
      });
  }
  assert.deepEqual(found, [], `\n${found.join('\n')}`);
});

test('the scan sees each switch it looks for (a pattern that matched nothing would pass anything)', () => {
  const samples = [
    "engine.target.family === 'onnx' ? a : b",
    "if (engine.target.device === 'webgpu') x();",
    'const f = formatOf(engine.target);',
    "status.engine?.format === 'graph-model'",
    "model.exportToTfjs('cpu', opts)",
    "if (format === 'onnx') return Promise.resolve(this.onnxPath());",
  ];
  assert.ok(SWITCHES[5]?.pattern.test("r.format === 'onnx' ? a : b") && SWITCHES[5].pattern.test("(f === 'graph-model' ? x : y)"), 'a record\'s format and a mapped name are seen too');
  assert.ok(!SWITCHES[5]?.pattern.test("if (json.format !== 'graph-model' || !json.modelTopology) {"), "a model.json's own format field is its file's marker");
  samples.forEach((line, i) => assert.ok(SWITCHES[i]?.pattern.test(line), line));
  assert.ok(!SWITCHES.some((s) => s.pattern.test("const file = await model.modelFile(engine.format);")), 'asking the model for the engine format is the way');
});
