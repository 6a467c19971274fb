/**
 * The model from `Benchmark.run` reaches the engine through at most 6 files
 * on every path, none entered twice (issue 49): in this process, in a fresh
 * child process, beside a browser page, and on a queue worker.
 *
 * How the count is taken. A path is the list of source files in which a
 * function holds the model on its way from `Benchmark.run` to the call that
 * hands an engine the model's file (`engine.open`): the BenchmarkModel
 * object, or, across the process boundary, the job payload with the
 * ModelSpec that stands for it. Each file counts once however many of its
 * functions hold the model in a row. A file that makes the model from its
 * spec (model-from-spec.ts) counts too, though the model only returns from
 * it to its caller. Files the model does not pass through are not counted:
 * those that only declare types, constants, the message protocol, or hold
 * the job tables a launcher looks the job up in (src/core/launch-jobs.ts).
 * The model's class counts as one file, the one whose method hands the
 * engine the model's file (BenchmarkModel's); a wrapper model passing the
 * call to the model it wraps (FixedLengthModel) is the model's own doing,
 * not a hop of the harness.
 *
 * How the path is followed. Each hop below names texts its file must hold
 * (the function that takes the model and the call that passes it on), and
 * the definition the call reaches, which must stand in the next hop's file
 * and in no other source file. The next file is reached one of three ways,
 * each checked: a direct import; a job table (this file looks the launch's
 * kind up, the next file registers that kind in the table); or a child
 * process (this file forks the child entry, which imports the next file).
 * So a pass-through added anywhere on a path (a file between two hops, a
 * wrapper the call now goes to) breaks a hop here; putting it in the list
 * counts it against the bound. One test shows the check catching both;
 * another runs the in-process path and holds the files on the engine
 * load's own stack (the async functions V8 keeps there) to the list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { relativeImports, ROOT, sourceFiles } from '../helpers/repo-sources.js';
import { Benchmark } from '../../src/runs/benchmark.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { CharModel } from '../helpers/char-model.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

const MAX_FILES = 6;

/** How the model gets from one hop's file to the next. */
type Link =
  | { readonly via: 'import' }
  /** `lookup` (in this file) finds the job of the launch's kind in a table; the next file's `to` is the registration by `register`. */
  | { readonly via: 'table'; readonly lookup: string; readonly register: string }
  /** This file forks `entry` (relative to it), and the entry imports the next file. */
  | { readonly via: 'process'; readonly entry: string }
  /**
   * This file calls a launcher it was given as a value (`call`, on its
   * `Launchers`): `giver` (off the model's path) builds that value with
   * `gives`, a call of the next file's launcher, which it imports.
   */
  | { readonly via: 'value'; readonly call: string; readonly giver: string; readonly gives: string };

interface Hop {
  readonly file: string;
  /** Texts this file must hold: the function that takes the model, the call that passes it on. */
  readonly shows: readonly string[];
  /** A file a function here hands the spec to and gets the model back from (it makes the model): counted, not followed. */
  readonly makes?: { readonly file: string; readonly to: string };
  /** The next hop: how it is reached, and the definition the call reaches there (unique in the source tree). Absent on the last hop, which calls the engine. */
  readonly next?: Link & { readonly to: string };
}

const SOURCES = new Map(['src', 'engines', 'datasets', 'reports'].flatMap((d) => sourceFiles(join(ROOT, d))).map((f) => [relative(ROOT, f).split(sep).join('/'), readFileSync(f, 'utf8')]));

function importsOf(file: string): string[] {
  return relativeImports(file, SOURCES.get(file) ?? '');
}

/** The files `text` stands in. */
function definedIn(text: string): string[] {
  return [...SOURCES].filter(([, source]) => source.includes(text)).map(([file]) => file);
}

/** What is wrong with a declared path; empty when it is the code's and within the bound. */
function pathProblems(path: readonly Hop[]): string[] {
  const problems: string[] = [];
  const files = path.flatMap((h) => [h.file, ...(h.makes ? [h.makes.file] : [])]);
  if (files.length > MAX_FILES) problems.push(`the model passes through ${files.length} files, more than ${MAX_FILES}: ${files.join(' → ')}`);
  const twice = files.filter((f, i) => files.indexOf(f) !== i);
  if (twice.length > 0) problems.push(`entered twice: ${[...new Set(twice)].join(', ')}`);
  path.forEach((hop, i) => {
    const source = SOURCES.get(hop.file);
    if (source === undefined) return void problems.push(`${hop.file} does not exist`);
    for (const text of hop.shows) if (!source.includes(text)) problems.push(`${hop.file} no longer holds \`${text}\``);
    if (hop.makes) {
      const where = definedIn(hop.makes.to);
      if (where.join() !== hop.makes.file) problems.push(`\`${hop.makes.to}\` stands in ${where.join(', ') || 'no file'}, not in ${hop.makes.file} alone`);
      if (!importsOf(hop.file).includes(hop.makes.file)) problems.push(`${hop.file} does not import ${hop.makes.file}`);
    }
    const after = path[i + 1];
    if (!hop.next || !after) {
      if (hop.next || after) problems.push(`${hop.file}: only the last hop has no next, and it must have none`);
      return;
    }
    const where = definedIn(hop.next.to);
    if (where.join() !== after.file) problems.push(`\`${hop.next.to}\` stands in ${where.join(', ') || 'no file'}, not in ${after.file} alone`);
    const link = hop.next;
    if (link.via === 'import' && !importsOf(hop.file).includes(after.file)) problems.push(`${hop.file} does not import ${after.file}`);
    if (link.via === 'table') {
      if (!source.includes(link.lookup)) problems.push(`${hop.file} no longer looks the job up by \`${link.lookup}\``);
      if (!link.to.startsWith(`${link.register}<`) && !link.to.startsWith(`${link.register}(`)) problems.push(`\`${link.to}\` is not a registration by ${link.register}`);
    }
    if (link.via === 'value') {
      if (!source.includes(link.call)) problems.push(`${hop.file} no longer calls the launcher it is given by \`${link.call}\``);
      if (!(SOURCES.get(link.giver) ?? '').includes(link.gives)) problems.push(`${link.giver} no longer gives the launcher by \`${link.gives}\``);
      if (!importsOf(link.giver).includes(after.file)) problems.push(`${link.giver} does not import ${after.file}`);
      if (importsOf(hop.file).includes(after.file)) problems.push(`${hop.file} imports ${after.file}: a launcher it is given is not imported`);
    }
    if (link.via === 'process') {
      const entry = normalize(join(dirname(hop.file), link.entry)).split(sep).join('/');
      if (!source.includes(`new URL('./${link.entry.replace(/\.ts$/, '.js')}'`)) problems.push(`${hop.file} does not fork ${link.entry}`);
      if (!importsOf(entry).includes(after.file)) problems.push(`the child entry ${entry} does not import ${after.file}`);
    }
  });
  return problems;
}

const RUN = 'async run(model: BenchmarkModel';
/** Where `Benchmark.run` is: the classification sweep's class, which src/runs/benchmark.ts's Benchmark gives the built-in launchers. */
const BENCHMARK = 'src/scenarios/classify/classify-benchmark.ts';
/** The file that builds the launchers the sweep is given (off the model's path: the model never passes through it). */
const GIVER = 'src/runs/builtin-launchers.ts';
/** The one function that hands an engine the model's file in the format the engine declares (src/models/benchmark-model.ts). */
const TO_MODEL = '\nexport async function openOn(engine: Engine, model: BenchmarkModel';
const MODEL: Hop = { file: 'src/models/benchmark-model.ts', shows: ['export async function openOn(', 'engine.open(file'] };

const PATHS: Readonly<Record<string, readonly Hop[]>> = {
  'in-process': [
    { file: BENCHMARK, shows: [RUN, 'launch(classifyLaunch(group), hooks'], next: { via: 'value', call: 'this.launchers.inProcess()', giver: GIVER, gives: 'inProcess: () => inProcessLaunch()', to: 'export function inProcessLaunch(' } },
    { file: 'src/launchers/in-process-launcher.ts', shows: ['jobs.job(launch.kind)(launch.payload'], next: { via: 'table', lookup: 'jobs.job(launch.kind)', register: 'registerLocalJob', to: "registerLocalJob<OpenGroup, CellKey, MeasuredRound>('classify'" } },
    { file: 'src/scenarios/classify/open-group.ts', shows: ['measureOpenGroup(group', 'openTimed(group.model', 'openOn(engine, model'], next: { via: 'import', to: TO_MODEL } },
    MODEL,
  ],
  isolated: [
    { file: BENCHMARK, shows: [RUN, 'model: this.isolationSpec(model)', 'launch(classifyLaunch(job), hooks'], next: { via: 'value', call: 'this.launchers.isolated(o.engineModules)', giver: GIVER, gives: 'isolatedLaunch(engineModules)', to: 'export function isolatedLaunch(' } },
    { file: 'src/launchers/isolated-launcher.ts', shows: ['payload: launch.payload', "child.send({ type: 'job', job }"], next: { via: 'process', entry: 'scenario-child.ts', to: "on('message', (message: ForkedParentMessage)" } },
    { file: 'src/launchers/scenario-child-job.ts', shows: ['childJob(job.kind)(job.payload'], next: { via: 'table', lookup: 'childJob(job.kind)', register: 'registerChildJob', to: "registerChildJob<IsolatedJob, CellKey, MeasuredRound>('classify'" } },
    {
      file: 'src/scenarios/classify/open-group.ts',
      shows: ['modelFromSpec(job.model)', 'measureOpenGroup(', 'openTimed(group.model', 'openOn(engine, model'],
      makes: { file: 'src/models/model-from-spec.ts', to: 'export async function modelFromSpec(' },
      next: { via: 'import', to: TO_MODEL },
    },
    MODEL,
  ],
  browser: [
    { file: BENCHMARK, shows: [RUN, 'inBrowser.run(classifyPageLaunch(group)'], next: { via: 'value', call: 'this.launchers.page()', giver: GIVER, gives: 'page: () => browserLauncher()', to: 'export function browserLauncher(' } },
    { file: 'src/launchers/browser/browser-launcher.ts', shows: ['pageJobs.job(launch.kind)', 'job(launch.payload'], next: { via: 'table', lookup: 'pageJobs.job(launch.kind)', register: 'registerPageJob', to: "registerPageJob<OpenGroup, CellKey, MeasuredRound>('classify'" } },
    { file: 'src/scenarios/classify/open-group.ts', shows: ['measureOpenGroup({ ...group, engine }', 'openTimed(group.model', 'openOn(engine, model'], next: { via: 'import', to: TO_MODEL } },
    MODEL,
  ],
};

for (const [name, path] of Object.entries(PATHS)) {
  test(`${name}: the model passes through at most ${MAX_FILES} files from Benchmark.run to the engine, none twice`, () => {
    assert.deepEqual(pathProblems(path), []);
  });
}

test('queue: a worker runs its job through Benchmark.run on the isolated path, so the model crosses the same files there', () => {
  const runner = SOURCES.get('src/scenarios/classify/classify-queue-runner.ts') ?? '';
  assert.match(runner, /new ClassifyBenchmark\(\{[\s\S]*?\bisolate: true,[\s\S]*?\}, ctx\.launchers\);/);
  assert.match(runner, /await benchmark\.run\(model, /);
  assert.deepEqual(pathProblems(PATHS['isolated'] ?? []), []);
});

test('the check fails on a pass-through hop and on a file entered twice', () => {
  const inProcess = PATHS['in-process'] ?? [];
  const [first, ...rest] = inProcess;
  assert.ok(first);
  // A file between Benchmark.run and the launcher: Benchmark no longer reaches the launcher directly, and the wrapper is not where the call goes.
  const wrapper: Hop = { file: 'src/launchers/child-protocol.ts', shows: ['PARENT_LIFELINE_FD'], next: { via: 'import', to: 'export function inProcessLaunch(' } };
  const withWrapper = [{ ...first, next: { via: 'import' as const, to: 'export const PARENT_LIFELINE_FD' } }, wrapper, ...rest];
  assert.ok(pathProblems(withWrapper).some((p) => /does not import/.test(p)), pathProblems(withWrapper).join('\n'));
  // The same hops made longer than the bound, or re-entering a file, are refused whatever their links.
  const long = [...(PATHS['isolated'] ?? []).slice(0, -1), { file: 'src/models/fixed-length-model.ts', shows: [] }, MODEL];
  assert.ok(pathProblems(long).some((p) => /more than 6/.test(p)), pathProblems(long).join('\n'));
  const twice = [...inProcess.slice(0, -1), { ...first, next: undefined }];
  assert.ok(pathProblems(twice).some((p) => /entered twice: src\/scenarios\/classify\/classify-benchmark\.ts/.test(p)), pathProblems(twice).join('\n'));
});

test('in-process, as it runs: every source file on the stack when the engine opens is on the declared path', async () => {
  const stacks: string[] = [];
  const engine = createMockEngine({ id: 'stack-mock' });
  const registry = new EngineRegistry({});
  registry.register({
    ...engine,
    open: (path, options) => {
      stacks.push(new Error('where the engine is opened from').stack ?? '');
      return engine.open(path, options);
    },
  });
  const cells = await new Benchmark({ dataset: memoryDataset(4), batchSizes: [1], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1 } }).run(new CharModel(), ['stack-mock']);
  assert.equal(cells[0]?.state, 'completed');
  assert.ok(stacks.length > 0);
  const declared = new Set((PATHS['in-process'] ?? []).map((h) => h.file));
  const dist = join(ROOT, 'dist') + sep;
  const onStack = new Set(
    stacks.flatMap((stack) =>
      [...stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+\.js):\d+:\d+/g)]
        .map((m) => m[1] ?? '')
        .filter((f) => f.startsWith(dist) && !f.startsWith(join(dist, 'test') + sep))
        .map((f) => relative(dist, f).split(sep).join('/').replace(/\.js$/, '.ts')),
    ),
  );
  assert.ok(onStack.has(BENCHMARK), [...onStack].join(', '));
  assert.deepEqual([...onStack].filter((f) => !declared.has(f)), [], `on the stack but not on the declared path: ${[...onStack].join(', ')}`);
});
