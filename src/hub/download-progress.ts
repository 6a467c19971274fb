/**
 * The progress bar of a model download: bytes so far, rate and ETA, redrawn
 * in place on a terminal and silent otherwise, so logs and CI output stay
 * clean. Formatting is a pure function, so it is tested without a terminal.
 */
import { formatBytes, formatDuration } from '../core/units.js';

/** Receives the progress of one file's download. */
export interface DownloadProgress {
  start(file: string, totalBytes: number | null): void;
  advance(bytes: number): void;
  /** The file is complete (or failed, with `ok` false); the bar line is finished. */
  finish(ok: boolean): void;
}

/** What one progress line shows. */
export interface ProgressState {
  readonly file: string;
  readonly doneBytes: number;
  readonly totalBytes: number | null;
  readonly elapsedMs: number;
}

const BAR_WIDTH = 20;

/** One line: `onnx/model.onnx  [######----]  12.0 MiB / 43.2 MiB  3.1 MiB/s  ETA 10.1 s`. */
export function formatProgress(state: ProgressState): string {
  const seconds = state.elapsedMs / 1000;
  const rate = seconds > 0 ? state.doneBytes / seconds : 0;
  const total = state.totalBytes;
  const known = total !== null && total > 0;
  const fraction = known ? Math.min(1, state.doneBytes / total) : 0;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = known ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%` : '';
  const size = known ? `${formatBytes(state.doneBytes)} / ${formatBytes(total)}` : formatBytes(state.doneBytes);
  const eta = known && rate > 0 ? `ETA ${formatDuration(((total - state.doneBytes) / rate) * 1000)}` : 'ETA –';
  return [state.file, bar, size, `${formatBytes(rate)}/s`, eta].filter((s) => s !== '').join('  ');
}

/** The writable side a progress bar draws on; `isTTY` decides whether it draws at all. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Redraws at most this often, so a fast download does not flood the terminal. */
const REDRAW_MS = 100;

/**
 * A progress bar on `stream` (stderr by default) when it is a terminal; a
 * no-op otherwise. `now` is injectable for tests.
 */
export function terminalProgress(stream: ProgressStream = process.stderr, now: () => number = () => performance.now()): DownloadProgress {
  if (stream.isTTY !== true) return { start: () => {}, advance: () => {}, finish: () => {} };
  let state: { file: string; total: number | null; done: number; started: number; drawn: number } | null = null;
  const draw = (): void => {
    if (!state) return;
    state.drawn = now();
    stream.write(`\r\u001b[2K${formatProgress({ file: state.file, doneBytes: state.done, totalBytes: state.total, elapsedMs: state.drawn - state.started })}`);
  };
  return {
    start(file, totalBytes) {
      state = { file, total: totalBytes, done: 0, started: now(), drawn: -Infinity };
      draw();
    },
    advance(bytes) {
      if (!state) return;
      state.done += bytes;
      if (now() - state.drawn >= REDRAW_MS) draw();
    },
    finish(ok) {
      if (!state) return;
      draw();
      stream.write(ok ? '\n' : '  (failed)\n');
      state = null;
    },
  };
}
