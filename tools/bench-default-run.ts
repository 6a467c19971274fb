/**
 * `npm run bench:default-run`: how long the default run takes, the command
 * README's first five minutes give a new user (`inferbench run`, nothing
 * else), on every engine available here. Runs it BENCH_DEFAULT_RUNS times
 * (default 3) in a fresh temp folder each (so no earlier history or output
 * is read), and prints per run the wall time, the CPU time of the run's
 * processes (the CLI and every child it reaped), the cells and how many had
 * no whole pass or a host-busy note, with the 1-minute load average before
 * and after; then the median wall time. Target (issue 34): at most 90 s on
 * the 2-core development machine with tfjs-node built, when it is quiet.
 * The load average says whether it was: a busy machine makes the figure
 * useless, and the tool says so rather than hiding it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeCli } from './bench-cli-process.js';
import { median } from './bench-passes.js';

const RUNS = Number(process.env['BENCH_DEFAULT_RUNS'] ?? 3);
const TARGET_S = 90;

interface Cells {
  readonly total: number;
  readonly noWholePass: number;
  readonly hostBusy: number;
  readonly engines: number;
}

/** Cells of the one run folder under `out`, read from its results.json. */
function cellsOf(out: string): Cells | null {
  const runs = readdirSync(out, { withFileTypes: true }).filter((d) => d.isDirectory());
  const dir = runs[0];
  if (!dir) return null;
  const record = JSON.parse(readFileSync(join(out, dir.name, 'results.json'), 'utf8')) as {
    cells: { engine: string; verdict?: { reasons?: string[]; warnings?: string[] } }[];
  };
  const reasons = (c: (typeof record.cells)[number]) => c.verdict?.reasons ?? [];
  return {
    total: record.cells.length,
    noWholePass: record.cells.filter((c) => reasons(c).some((r) => r.startsWith('saw '))).length,
    hostBusy: record.cells.filter((c) => (c.verdict?.warnings ?? []).some((w) => w.startsWith('host busy'))).length,
    engines: new Set(record.cells.map((c) => c.engine)).size,
  };
}

async function once(i: number): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'inferbench-default-run-'));
  const [before] = loadavg();
  const { code, wallS, cpuS } = await timeCli(['run'], { cwd: folder });
  const [after] = loadavg();
  const cells = cellsOf(join(folder, 'inferbench-out'));
  rmSync(folder, { recursive: true, force: true });
  process.stdout.write(
    `run ${i + 1}: ${wallS.toFixed(1)} s wall, ${cpuS === null ? '?' : cpuS.toFixed(1)} s CPU, exit ${code}; ` +
      (cells ? `${cells.engines} engines, ${cells.total} cells, ${cells.noWholePass} without a whole pass, ${cells.hostBusy} with a host-busy note; ` : 'no results.json; ') +
      `load average ${(before ?? 0).toFixed(2)} before, ${(after ?? 0).toFixed(2)} after\n`,
  );
  return wallS;
}

async function main(): Promise<void> {
  process.stdout.write(
    `bench:default-run — \`inferbench run\` with no options, in a fresh temp folder, ${RUNS} time(s)\n` +
      `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores; node ${process.version}; INFERBENCH_CACHE=${process.env['INFERBENCH_CACHE'] ?? '(default)'}\n\n`,
  );
  const walls: number[] = [];
  for (let i = 0; i < RUNS; i++) walls.push(await once(i));
  const mid = median(walls);
  const [load1] = loadavg();
  process.stdout.write(
    `\nmedian wall time: ${mid.toFixed(1)} s over ${RUNS} run(s) (target: at most ${TARGET_S} s on a quiet 2-core machine: ${mid <= TARGET_S ? 'MET' : 'NOT MET'})\n` +
      ((load1 ?? 0) > cpus().length / 2 ? `note: load average ${(load1 ?? 0).toFixed(2)} on ${cpus().length} cores: other work shared the machine, so the times are longer than a quiet machine's\n` : ''),
  );
}

await main();
