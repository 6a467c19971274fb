/**
 * `npm run bench:datasets`: how fast inferbench streams a large Parquet file
 * and how much memory that takes, against the targets (reading
 * ≥ 500k rows/s, peak RSS growth < 150 MB over a 1M-row snappy file), and a
 * comparison of the two Parquet readers considered: hyparquet and
 * parquetjs-lite.
 *
 *   node dist/tools/bench-datasets.js [--rows 1000000] [--compare-rows 100000] [--tokenize-rows N]
 *
 * Tokenizing uses the embedded default model's tokenizer and covers the
 * whole file unless `--tokenize-rows` caps it (it is much slower than reading).
 *
 * Each measurement runs in a fresh Node process so one cannot warm up or
 * bloat another; the generated files are kept in .cache/bench-datasets/
 * (git-ignored) and reused.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import type { Compressors } from 'hyparquet';
import { compressors as wasmCompressors } from 'hyparquet-compressors';
import { parquetWriteFile } from 'hyparquet-writer';
import { openDataset } from '../datasets/open-dataset.js';
import { packageRoot } from '../src/core/package-info.js';

type Mode = 'dataset' | 'dataset-tokenize' | 'hyparquet' | 'hyparquet-wasm-snappy' | 'parquetjs-lite';

/** What one measuring process prints, as JSON on its last line. */
interface Measurement {
  readonly mode: Mode;
  readonly rows: number;
  readonly seconds: number;
  /** User + system CPU seconds of the measuring process over the pass, all threads (GC helpers included). */
  readonly cpuSeconds: number;
  readonly baselineRss: number;
  readonly peakRss: number;
}

const READ_TARGET_ROWS_PER_S = 500_000;
const RSS_TARGET_BYTES = 150 * 1024 * 1024;
const TOKENIZE_BATCH = 256;
/** Runs per measurement (best kept); tokenizing, which takes minutes, runs once. */
const RUNS = 3;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? undefined : Number(process.argv[i + 1]);
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

function sentences(): string[] {
  const path = join(packageRoot(), 'datasets', 'default', 'sentiment.jsonl');
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => String((JSON.parse(line) as { text: string }).text));
}

/** Row i of the generated data: an embedded sentence made unique, so dictionary encoding cannot shrink the file to nothing. */
function rowText(texts: readonly string[], i: number): string {
  return `${texts[i % texts.length]} #${i}`;
}

/** The 1M-row benchmark file, snappy, written by hyparquet-writer with its default row groups (1,000 then 100,000 rows). */
function ensureHyparquetFile(path: string, rows: number): void {
  if (existsSync(path)) return;
  const texts = sentences();
  const started = performance.now();
  parquetWriteFile({
    filename: `${path}.tmp`,
    columnData: [
      { name: 'text', data: Array.from({ length: rows }, (_, i) => rowText(texts, i)), type: 'STRING' },
      { name: 'label', data: Int32Array.from({ length: rows }, (_, i) => i % 2), type: 'INT32' },
    ],
    codec: 'SNAPPY',
  });
  renameSync(`${path}.tmp`, path);
  console.log(`generated ${path} (${rows.toLocaleString('en-US')} rows) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The comparison file, written by parquetjs-lite itself: parquetjs-lite only
 * reads format-version-1 files, and hyparquet-writer and pyarrow write
 * version 2, so it cannot read the main benchmark file at all.
 */
async function ensureParquetjsFile(path: string, rows: number): Promise<void> {
  if (existsSync(path)) return;
  const parquet = loadParquetjs();
  const texts = sentences();
  const schema = new parquet.ParquetSchema({ text: { type: 'UTF8', compression: 'SNAPPY' }, label: { type: 'INT32', compression: 'SNAPPY' } });
  const writer = await parquet.ParquetWriter.openFile(schema, `${path}.tmp`, { rowGroupSize: 10_000 });
  for (let i = 0; i < rows; i++) await writer.appendRow({ text: rowText(texts, i), label: i % 2 });
  await writer.close();
  renameSync(`${path}.tmp`, path);
  console.log(`generated ${path} (${rows.toLocaleString('en-US')} rows, parquetjs-lite writer)`);
}

/** The parts of parquetjs-lite (untyped CommonJS) the bench uses. */
interface ParquetjsLite {
  ParquetSchema: new (fields: Record<string, { type: string; compression: string }>) => unknown;
  ParquetWriter: { openFile(schema: unknown, path: string, options: { rowGroupSize: number }): Promise<{ appendRow(row: object): Promise<void>; close(): Promise<void> }> };
  ParquetReader: { openFile(path: string): Promise<{ getCursor(): { next(): Promise<unknown> }; close(): Promise<void> }> };
}

/** parquetjs-lite is CommonJS without types (a dev dependency used only here). */
function loadParquetjs(): ParquetjsLite {
  return createRequire(import.meta.url)('parquetjs-lite') as ParquetjsLite;
}

// ---------------------------------------------------------------- measuring

/** Tracks the highest RSS seen; `sample` is called from the read loops, which may not yield to timers. */
class RssPeak {
  peak = process.memoryUsage.rss();
  private readonly timer = setInterval(() => this.sample(), 10);

  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }
}

async function rawHyparquet(file: string, compressors: Compressors | undefined, peak: RssPeak): Promise<number> {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer);
  let rows = 0;
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    await parquetRead({
      file: buffer,
      metadata,
      rowStart: start,
      rowEnd: end,
      rowFormat: 'object',
      ...(compressors ? { compressors } : {}),
      onComplete: (decoded) => {
        rows += decoded.length;
      },
    });
    peak.sample();
    start = end;
  }
  return rows;
}

async function measure(mode: Mode, file: string, limit: number | undefined): Promise<Measurement> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let tokenize: ((texts: string[]) => unknown) | undefined;
  if (mode === 'dataset-tokenize') {
    const { defaultClassifier } = await import('../src/models/default-classifier.js');
    const model = await defaultClassifier();
    tokenize = (texts) => model.tokenizeTexts(texts);
  }
  const parquetjs = mode === 'parquetjs-lite' ? loadParquetjs() : undefined;
  gc?.();
  const baselineRss = process.memoryUsage.rss();
  const peak = new RssPeak();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  let rows = 0;
  if (mode === 'dataset' || mode === 'dataset-tokenize') {
    const opened = await openDataset(file);
    const dataset = limit === undefined ? opened : opened.take(limit);
    if (tokenize) {
      for await (const batch of dataset.batches(TOKENIZE_BATCH)) {
        tokenize(batch.map((r) => String(r['text'])));
        rows += batch.length;
        peak.sample();
      }
    } else {
      for await (const _row of dataset) {
        if ((++rows & 1023) === 0) peak.sample();
      }
    }
  } else if (mode === 'hyparquet') {
    rows = await rawHyparquet(file, undefined, peak);
  } else if (mode === 'hyparquet-wasm-snappy') {
    rows = await rawHyparquet(file, wasmCompressors, peak);
  } else if (parquetjs) {
    const reader = await parquetjs.ParquetReader.openFile(file);
    const cursor = reader.getCursor();
    while ((await cursor.next()) !== null) {
      if ((++rows & 1023) === 0) peak.sample();
    }
    await reader.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { mode, rows, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, baselineRss, peakRss: peak.stop() };
}

function runOnce(mode: Mode, file: string, limit?: number): Measurement {
  const script = fileURLToPath(import.meta.url);
  const args = ['--expose-gc', script, '--measure', mode, '--file', file, ...(limit === undefined ? [] : ['--limit', String(limit)])];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  if (child.status !== 0 || !last.startsWith('{')) throw new Error(`${mode} failed (exit ${child.status}):\n${child.stderr}\n${child.stdout}`);
  return JSON.parse(last) as Measurement;
}

/**
 * Runs a measurement `runs` times in fresh processes and keeps the fastest
 * pass, the usual way to read throughput on a machine other processes share;
 * the RSS growth reported is the largest seen over all runs, so the memory
 * figure is never the flattering one.
 */
function runChild(mode: Mode, file: string, options: { runs?: number; limit?: number } = {}): Measurement {
  const all = Array.from({ length: options.runs ?? RUNS }, () => runOnce(mode, file, options.limit));
  const fastest = all.reduce((a, b) => (b.seconds < a.seconds ? b : a));
  const growth = Math.max(...all.map((m) => m.peakRss - m.baselineRss));
  return { ...fastest, peakRss: fastest.baselineRss + growth };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const rate = (m: Measurement): number => m.rows / m.seconds;

function line(label: string, m: Measurement, extrapolateTo?: number): string {
  const perSecond = rate(m);
  const projected = extrapolateTo === undefined ? '' : `  (→ ${(extrapolateTo / perSecond).toFixed(1)} s for ${extrapolateTo.toLocaleString('en-US')} rows, extrapolated)`;
  const perCpu = Math.round(m.rows / m.cpuSeconds).toLocaleString('en-US');
  return `  ${label.padEnd(48)} ${m.rows.toLocaleString('en-US').padStart(9)} rows  ${m.seconds.toFixed(2).padStart(6)} s  ${Math.round(perSecond).toLocaleString('en-US').padStart(9)} rows/s (${perCpu.padStart(9)} per CPU-s)  RSS +${mb(m.peakRss - m.baselineRss)}${projected}`;
}

async function main(): Promise<void> {
  const measureAt = process.argv.indexOf('--measure');
  if (measureAt !== -1) {
    const file = process.argv[process.argv.indexOf('--file') + 1] ?? '';
    const limit = process.argv.includes('--limit') ? flag('limit', 1) : undefined;
    console.log(JSON.stringify(await measure(process.argv[measureAt + 1] as Mode, file, limit)));
    return;
  }
  const rows = flag('rows', 1_000_000);
  const compareRows = flag('compare-rows', 100_000);
  const tokenizeRows = process.argv.includes('--tokenize-rows') ? flag('tokenize-rows', rows) : undefined;
  const dir = join(packageRoot(), '.cache', 'bench-datasets');
  mkdirSync(dir, { recursive: true });
  const main = join(dir, `hyparquet-writer-snappy-${rows}.parquet`);
  const compare = join(dir, `parquetjs-lite-snappy-${compareRows}.parquet`);
  ensureHyparquetFile(main, rows);
  await ensureParquetjsFile(compare, compareRows);

  const [load1] = loadavg();
  console.log(`\nnode ${process.version}, ${cpus().length} cores, load average ${load1?.toFixed(1)} when starting (other processes slow every figure down)`);
  console.log(`${rows.toLocaleString('en-US')}-row snappy Parquet written by hyparquet-writer (${mb(readFileSync(main).byteLength)})`);
  console.log(`best of ${RUNS} runs each (tokenizing: one run); RSS: the largest growth over the runs; per CPU-s: rows per second of this process's CPU time, which other processes disturb less`);
  console.log('inferbench (openDataset → Dataset, the path every benchmark uses):');
  const read = runChild('dataset', main);
  const tokenized = runChild('dataset-tokenize', main, { runs: 1, ...(tokenizeRows === undefined ? {} : { limit: tokenizeRows }) });
  console.log(line('reading', read));
  console.log(line(`reading + tokenizing (batches of ${TOKENIZE_BATCH})`, tokenized));
  console.log(`  (tokenizer: the embedded default model's, @huggingface/tokenizers WordPiece; reading is ${Math.round((tokenized.seconds ? (read.seconds / read.rows) / (tokenized.seconds / tokenized.rows) : 0) * 100)}% of that time)`);
  console.log('raw hyparquet, one parquetRead per row group:');
  console.log(line('built-in JavaScript snappy', runChild('hyparquet', main)));
  console.log(line('hyparquet-compressors snappy (WebAssembly, used)', runChild('hyparquet-wasm-snappy', main)));

  console.log(`\nparquetjs-lite vs hyparquet on a ${compareRows.toLocaleString('en-US')}-row snappy file written by parquetjs-lite`);
  console.log('(parquetjs-lite reads only format-version-1 files, so it cannot open the file above; its run is capped and extrapolated):');
  console.log(line('parquetjs-lite', runChild('parquetjs-lite', compare), rows));
  console.log(line('hyparquet', runChild('hyparquet', compare), rows));
  console.log(line('inferbench Dataset (hyparquet)', runChild('dataset', compare), rows));

  const readOk = rate(read) >= READ_TARGET_ROWS_PER_S;
  const growth = Math.max(read.peakRss - read.baselineRss, tokenized.peakRss - tokenized.baselineRss);
  const rssOk = growth < RSS_TARGET_BYTES;
  const perCpu = Math.round(read.rows / read.cpuSeconds).toLocaleString('en-US');
  console.log(`\ntarget reading ≥ ${READ_TARGET_ROWS_PER_S.toLocaleString('en-US')} rows/s: ${readOk ? 'met' : 'NOT met'} (${Math.round(rate(read)).toLocaleString('en-US')} rows/s wall clock, ${perCpu} rows per CPU-second; load average now ${loadavg()[0]?.toFixed(1)})`);
  console.log(`target peak RSS growth < ${mb(RSS_TARGET_BYTES)}: ${rssOk ? 'met' : 'NOT met'} (${mb(growth)}, the larger of reading and reading + tokenizing)`);
  if (!readOk || !rssOk) process.exitCode = 1;
}

await main();
