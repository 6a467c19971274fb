import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type CpuTimes,
  hostNoiseWarnings,
  otherCpuShareBetween,
  ownProcessTicks,
  parseProcessStat,
  parseProcStatCpu,
  stealShareBetween,
} from '../../src/core/host-noise.js';

/** The aggregate line of /proc/stat: user nice system idle iowait irq softirq steal guest guest_nice. */
const STAT = (user: number, steal: number, idle = 1000) => `cpu  ${user} 0 100 ${idle} 10 0 5 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 123\nctxt 456\n`;
/** A /proc/PID/stat line; the command name holds a space and a parenthesis, as Chromium's can. */
const PROC = (pid: number, ppid: number, pgrp: number, utime: number, stime: number, cutime = 0, cstime = 0) =>
  `${pid} (node (x) y) S ${ppid} ${pgrp} ${pgrp} 0 -1 4194560 100 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 7 0 1 2 3`;

test('the cpu line of /proc/stat gives total, steal and busy ticks, and steal share is their change between readings', () => {
  assert.deepEqual(parseProcStatCpu(STAT(500, 20)), { total: 500 + 100 + 1000 + 10 + 5 + 20, steal: 20, busy: 500 + 100 + 5 });
  assert.equal(parseProcStatCpu('intr 1\n'), null);
  const share = stealShareBetween(parseProcStatCpu(STAT(500, 20)), parseProcStatCpu(STAT(590, 30)));
  assert.equal(share, 10 / 100);
  assert.equal(stealShareBetween(null, parseProcStatCpu(STAT(1, 1))), null);
  assert.equal(stealShareBetween(parseProcStatCpu(STAT(500, 20)), parseProcStatCpu(STAT(500, 20))), null, 'no time passed: unknown, not zero');
});

test("/proc/PID/stat gives ppid, process group and utime + stime, counted after the name's last parenthesis", () => {
  assert.deepEqual(parseProcessStat(PROC(42, 7, 40, 300, 25)), { pid: 42, ppid: 7, pgrp: 40, ticks: 325 });
  assert.equal(parseProcessStat('garbage'), null);
});

test("/proc/PID/stat's ticks include cutime + cstime: the CPU time of the process's children that exited and were reaped", () => {
  assert.deepEqual(parseProcessStat(PROC(42, 7, 40, 300, 25, 160, 10)), { pid: 42, ppid: 7, pgrp: 40, ticks: 495 });
});

test('a tfjs-node round on a quiet machine: the probe child its open started and reaped is inferbench\'s own work, not a host-busy note', () => {
  // Readings as /proc gave them around a round of tfjs-node, 3 s on 2 cores (600 ticks). The isolated child (41) imports
  // libtensorflow in a probe child (42, 170 ticks) during its open, which exits before the round's reading; the child
  // itself takes 150 ticks; others take 8.
  const own = (lines: string[]) => ownProcessTicks(lines.map((l) => parseProcessStat(l)).filter((p) => p !== null), 40);
  const before: CpuTimes = { ...(parseProcStatCpu(STAT(1000, 0, 5000)) as Omit<CpuTimes, 'own'>), own: own([PROC(40, 1, 40, 10, 0), PROC(41, 40, 40, 50, 0)]) };
  const after: CpuTimes = {
    ...(parseProcStatCpu(STAT(1000 + 328, 0, 5000 + 600 - 328)) as Omit<CpuTimes, 'own'>),
    own: own([PROC(40, 1, 40, 10, 0), PROC(41, 40, 40, 190, 10, 160, 10)]),
  };
  const share = otherCpuShareBetween(before, after);
  assert.equal(share, 8 / 600, 'without the reaped probe child, 170 of its ticks would count as other work: 30%');
  const noise = { loadPerCore: 1.1, stealShare: 0, otherCpuShare: share, cores: 2 };
  assert.deepEqual(hostNoiseWarnings([{ index: 0, noise: { before: noise, after: noise } }]), []);
});

test("inferbench's own ticks: its process group and every descendant of it, nothing else", () => {
  const procs = [
    { pid: 40, ppid: 1, pgrp: 40, ticks: 10 }, // the CLI
    { pid: 41, ppid: 40, pgrp: 40, ticks: 200 }, // an isolated child measuring the engine
    { pid: 50, ppid: 41, pgrp: 50, ticks: 70 }, // a browser the child launched in a group of its own
    { pid: 51, ppid: 50, pgrp: 50, ticks: 30 }, // its renderer
    { pid: 90, ppid: 1, pgrp: 90, ticks: 999 }, // someone else's compile
  ];
  assert.equal(ownProcessTicks(procs, 40), 310);
});

/** Two readings 1 s apart on a 2-core machine at 100 ticks/s: 200 ticks of wall time × cores. */
function readings(busyTicks: number, ownTicks: number): [CpuTimes, CpuTimes] {
  const before = { ...(parseProcStatCpu(STAT(1000, 0, 5000)) as Omit<CpuTimes, 'own'>), own: 5000 };
  const after = { ...(parseProcStatCpu(STAT(1000 + busyTicks, 0, 5000 + 200 - busyTicks)) as Omit<CpuTimes, 'own'>), own: 5000 + ownTicks };
  return [before, after];
}

test('an engine at 2 threads on a quiet 2-core machine: load 2 per core, yet no host-busy note (its own work is netted out)', () => {
  // The engine kept both cores busy (196 of 200 ticks) and its process tree accounts for 194 of them.
  const [before, after] = readings(196, 194);
  const share = otherCpuShareBetween(before, after);
  assert.equal(share, 2 / 200);
  const noise = { loadPerCore: 2.05, stealShare: 0, otherCpuShare: share, cores: 2 };
  assert.deepEqual(hostNoiseWarnings([{ index: 0, noise: { before: noise, after: noise } }]), []);
});

test('other processes taking more than a quarter of the CPU time give a note naming the round, the share and the cores', () => {
  // The engine at 1 thread (100 ticks); another job took 80 ticks more.
  const [before, after] = readings(186, 106);
  const share = otherCpuShareBetween(before, after);
  assert.equal(share, 80 / 200);
  const quiet = { loadPerCore: 0.4, stealShare: 0.01, otherCpuShare: 0.05, cores: 2 };
  const warnings = hostNoiseWarnings([
    { index: 0, noise: { before: quiet, after: quiet } },
    { index: 1, noise: { before: quiet, after: { loadPerCore: 0.9, stealShare: 0.08, otherCpuShare: share, cores: 2 } } },
  ]);
  assert.deepEqual(warnings, [
    "host busy in round 2: other processes used 40% of CPU time (0.8 of 2 cores), net of inferbench's own (above 25%)",
    'CPU steal 8.0% during round 2 (above 5%)',
  ]);
  // Exactly a quarter is still quiet; an unknown share (no /proc) is no judgement either way.
  const edge = { loadPerCore: 3, stealShare: 0, otherCpuShare: 0.25, cores: 2 };
  const unknown = { loadPerCore: 3, stealShare: null, otherCpuShare: null };
  assert.deepEqual(hostNoiseWarnings([{ index: 0, noise: { before: edge, after: unknown } }]), []);
});

test('the other-work share is clamped to 0..1 and unknown without both own readings or elapsed time', () => {
  const [before, after] = readings(100, 150); // own ticks above busy ones (the two files are read moments apart): never negative
  assert.equal(otherCpuShareBetween(before, after), 0);
  assert.equal(otherCpuShareBetween({ ...before, own: null }, after), null);
  assert.equal(otherCpuShareBetween(before, before), null);
});

test('a record from before the other-work share is judged by the load per core it recorded, saying so', () => {
  const old = { loadPerCore: 1.6, stealShare: null };
  assert.deepEqual(hostNoiseWarnings([{ index: 0, noise: { before: old, after: { loadPerCore: 0.9, stealShare: 0 } } }]), [
    "host busy in round 1: load 1.60 per core (above 1; an older record, inferbench's own load included)",
  ]);
});
