/**
 * `npm run readme-images`: takes README's pictures again from a real run, so
 * that they show what the code draws today rather than what it drew when
 * someone last remembered to copy a file. It runs README's example command
 * into a temp folder, copies its comparison.png to docs/images/, serves the
 * folder with `inferbench serve` and photographs the dashboard's run view at
 * 1366×768 (the smallest screen the dashboard is checked on) into
 * docs/images/dashboard.png. It prints the caption facts (command, date,
 * machine, load average) for README to quote: a picture of timings is a
 * figure too, and carries its date and machine.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import { findChromium, playwright, scriptedChromium } from '../engines/browser/chromium.js';

/** README's example command (its caption quotes it). */
const RUN_ARGS = ['run', '--engines', 'onnx-cpu,onnx-wasm,tfjs-wasm,transformers-js', '--batch-sizes', '1,8'];
const CLI = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
const IMAGES = join(packageRoot(), 'docs', 'images');

/** Runs the CLI to its end, output shown, and fails on a non-zero exit. */
function cli(args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: 'inherit', env: { ...process.env, COLUMNS: '100' } });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`inferbench ${args.join(' ')} exited with ${code}`))));
  });
}

/** Starts `inferbench serve` on `out` and resolves with the URL it prints, and a stop. */
function serve(out: string): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--out', out, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`inferbench serve exited with ${code} before it printed its URL`)));
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /inferbench dashboard: (\S+)/u.exec(text)?.[1];
      if (url !== undefined) resolve({ url, stop: () => child.kill('SIGINT') });
    });
  });
}

const folder = mkdtempSync(join(tmpdir(), 'inferbench-readme-images-'));
const out = join(folder, 'inferbench-out');
try {
  const [loadBefore] = loadavg();
  const started = new Date();
  await cli([...RUN_ARGS, '--out', out], folder);
  const run = readdirSync(out, { withFileTypes: true }).find((d) => d.isDirectory() && d.name !== 'cache' && /\d/u.test(d.name));
  if (run === undefined) throw new Error(`no run folder in ${out}`);
  copyFileSync(join(out, run.name, 'comparison.png'), join(IMAGES, 'comparison.png'));

  const found = await findChromium();
  if (!('path' in found)) throw new Error(`no Chromium for the dashboard picture: ${found.reason} (${found.enable})`);
  const server = await serve(out);
  try {
    const browser = await playwright().chromium.launch({ executablePath: await scriptedChromium(found.path), headless: true });
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await page.goto(server.url);
      await page.locator('.run-item').first().click();
      await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
      await page.waitForTimeout(1000);
      await page.screenshot({ path: join(IMAGES, 'dashboard.png') });
    } finally {
      await browser.close();
    }
  } finally {
    server.stop();
  }
  const cpu = cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'unknown CPU';
  process.stdout.write(
    `\nwrote docs/images/comparison.png and docs/images/dashboard.png\n` +
      `caption: \`inferbench ${RUN_ARGS.slice(0).join(' ')}\`, ${started.toISOString().slice(0, 10)}, ${cpu}, ${cpus().length} cores, ` +
      `load average ${(loadBefore ?? 0).toFixed(2)} before and ${(loadavg()[0] ?? 0).toFixed(2)} after\n`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
