import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { integratePower, isUnmeasurable, parseComputeApps, parsePowerLines, raplJoules, readRapl, type EnergyFigure, type GpuMemoryFigure } from '../../src/core/energy.js';
import { HardwareMeter, type CommandRunner } from '../../src/scenarios/hardware-meter.js';

/** A powercap tree with the given package zones (energy_uj, max_energy_range_uj) and a subzone that must not be counted. */
function powercap(t: { after: (f: () => void) => void }, zones: Record<string, [number, number]>): { root: string; set: (zone: string, uj: number) => void } {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-powercap-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const set = (zone: string, uj: number) => writeFileSync(join(root, zone, 'energy_uj'), `${uj}\n`);
  for (const [zone, [uj, max]] of Object.entries(zones)) {
    mkdirSync(join(root, zone));
    writeFileSync(join(root, zone, 'name'), `package-${zone.split(':')[1]}\n`);
    writeFileSync(join(root, zone, 'max_energy_range_uj'), `${max}\n`);
    set(zone, uj);
    mkdirSync(join(root, `${zone}:0`));
    writeFileSync(join(root, `${zone}:0`, 'energy_uj'), '999999999\n');
  }
  return { root, set };
}

/** nvidia-smi's wall-clock stamp (local time) of epoch ms. */
function stamp(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}/${p(d.getMonth() + 1)}/${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

test('RAPL: joules from package zones only, a wrapped counter unwrapped by max_energy_range_uj', (t) => {
  const { root, set } = powercap(t, { 'intel-rapl:0': [1_000_000, 10_000_000], 'intel-rapl:1': [9_500_000, 10_000_000] });
  const before = readRapl(root);
  assert.ok(!isUnmeasurable(before));
  set('intel-rapl:0', 3_500_000); // +2.5 J
  set('intel-rapl:1', 500_000); // wrapped: 10 − 9.5 + 0.5 = +1 J
  const after = readRapl(root);
  assert.ok(!isUnmeasurable(after));
  assert.equal(after.length, 2, 'subzones are not counted');
  assert.equal(raplJoules(before, after), 3.5);
});

test('RAPL: absent, zoneless and unreadable trees say why, never 0', (t) => {
  const missing = readRapl(join(tmpdir(), 'no-such-powercap-here'));
  assert.ok(isUnmeasurable(missing));
  assert.match(missing.unmeasurable, /no RAPL: .* does not exist/);
  const empty = mkdtempSync(join(tmpdir(), 'inferbench-powercap-empty-'));
  t.after(() => rmSync(empty, { recursive: true, force: true }));
  mkdirSync(join(empty, 'dtpm'));
  const none = readRapl(empty);
  assert.ok(isUnmeasurable(none));
  assert.match(none.unmeasurable, /no intel-rapl package zone/);
  const { root } = powercap(t, { 'intel-rapl:0': [1, 10] });
  rmSync(join(root, 'intel-rapl:0', 'energy_uj'));
  mkdirSync(join(root, 'intel-rapl:0', 'energy_uj')); // reading a folder fails like an unreadable file
  chmodSync(join(root, 'intel-rapl:0', 'energy_uj'), 0o000);
  const bad = readRapl(root);
  assert.ok(isUnmeasurable(bad));
  assert.match(bad.unmeasurable, /RAPL/);
});

test('nvidia-smi output: compute apps (C+G processes included) and power lines parse; [N/A] power is skipped', () => {
  const apps = parseComputeApps('4242, 43, 00000000:18:00.0\n17, 1024, 00000000:18:00.0\n\n');
  assert.deepEqual(apps[0], { pid: 4242, usedBytes: 43 * 1024 * 1024, busId: '00000000:18:00.0' });
  const power = parsePowerLines('2026/11/27 13:37:14.100, 00000000:18:00.0, 75.20\n2026/11/27 13:37:14.200, 00000000:18:00.0, [N/A]\n');
  assert.equal(power.length, 1);
  assert.equal(power[0]?.watts, 75.2);
});

test('power integrated over the window by the trapezoid rule, edges interpolated; a window the samples do not cover is null', () => {
  const r = [0, 100, 200, 300].map((atMs, i) => ({ atMs, busId: 'b', watts: [100, 200, 200, 100][i] as number }));
  // 50..250 ms: 150 W→200 W over 0.05 s, 200 W for 0.1 s, 200→150 W over 0.05 s = 8.75 + 20 + 8.75 J
  assert.ok(Math.abs((integratePower(r, 50, 250) as number) - 37.5) < 1e-9);
  assert.equal(integratePower(r, -10, 250), null);
  assert.equal(integratePower(r, 50, 400), null);
});

test('the meter on a fixture NVIDIA GPU: peak memory of this pid and board joules per sample over the window', async () => {
  const t0 = Date.UTC(2026, 10, 27, 12, 0, 0);
  const bus = '00000000:18:00.0';
  const power = Array.from({ length: 13 }, (_, i) => `${stamp(t0 + i * 100)}, ${bus}, 150.00`);
  const apps = ['4242, 40, ' + bus, '999, 4000, ' + bus, '4242, 43, ' + bus];
  let clock = t0 + 50;
  const runner: CommandRunner = (_cmd, args, onLine) => {
    const lines = args.some((a) => a.startsWith('--query-gpu')) ? power : apps;
    // Compute-app readings arrive while the loop runs, after start() has set the window.
    if (lines === apps) setImmediate(() => lines.forEach(onLine));
    else lines.forEach(onLine);
    return { stop: () => {} };
  };
  const meter = await HardwareMeter.start({ runner, hasNvidiaGpu: () => true, pid: 4242, now: () => clock, powercapRoot: join(tmpdir(), 'no-such-powercap'), settleMs: 50 });
  await new Promise((r) => setImmediate(r));
  clock = t0 + 1050;
  const f = await meter.stop(100);
  assert.ok(!isUnmeasurable(f.gpuMemory));
  assert.equal((f.gpuMemory as GpuMemoryFigure).peakBytes, 43 * 1024 * 1024, 'the peak of this pid, not of pid 999');
  assert.ok(!isUnmeasurable(f.gpuEnergy));
  const e = f.gpuEnergy as EnergyFigure;
  assert.ok(Math.abs(e.joules - 150) < 1e-9, `150 W for 1 s = 150 J, got ${e.joules}`);
  assert.ok(Math.abs(e.joulesPerSample - 1.5) < 1e-9);
  assert.equal(e.windowMs, 1000);
  assert.match(e.scope, /board power.*idle power/);
  assert.ok(isUnmeasurable(f.cpuEnergy));
});

test('the meter without a GPU or RAPL (this VM) records unmeasurable with the reason for all three', async () => {
  const meter = await HardwareMeter.start({ hasNvidiaGpu: () => false, powercapRoot: join(tmpdir(), 'no-such-powercap') });
  const f = await meter.stop(8);
  assert.deepEqual(f.gpuMemory, { unmeasurable: 'no NVIDIA GPU (nvidia-smi lists none)' });
  assert.deepEqual(f.gpuEnergy, { unmeasurable: 'no NVIDIA GPU (nvidia-smi lists none)' });
  assert.ok(isUnmeasurable(f.cpuEnergy));
  assert.match(f.cpuEnergy.unmeasurable, /no RAPL/);
});
