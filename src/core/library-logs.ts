/**
 * The engines' native libraries log on their own: libtensorflow (tfjs-node)
 * prints absl's "log messages before absl::InitializeLog()" banner and
 * oneDNN and CPU-feature INFO lines to stderr while it loads, before
 * TF_CPP_MIN_LOG_LEVEL can take effect (it hides only later lines). Those
 * lines landed in every report. Unless the user asks for them (`--verbose`,
 * which sets INFERBENCH_VERBOSE=1 for this process and its children), the
 * variable is set before the library loads, and the stderr of every child
 * process that loads an engine goes through `forwardStderr`, which drops the
 * library's INFO and WARNING lines and passes everything else on.
 */
import type { Readable, Writable } from 'node:stream';

/** Set to 1 by `--verbose`; children inherit it. */
export const VERBOSE_ENV = 'INFERBENCH_VERBOSE';

/** True when the user asked to see the engines' own library logs. */
export function libraryLogsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[VERBOSE_ENV] === '1';
}

const LIBRARY_LINES: readonly RegExp[] = [
  // absl's banner, printed once before its first message.
  /^WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR$/,
  // absl's format, MMDD hh:mm:ss.us thread file:line] (before absl knows the time, the seconds are since the epoch:
  // I0000 00:00:1795621804.772121   22019 port.cc:153] ...). INFO and WARNING only; errors stay.
  /^[IW]\d{4} \d\d:\d\d:\d+\.\d+ +\d+ [\w.-]+:\d+\] /,
  // TensorFlow's classic format: 2026-11-25 15:49:55.123456: I tensorflow/core/...
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: [IW] (tensorflow|external|tsl)\//,
  // The second line of the CPU-feature notice.
  /^To enable the following instructions: .*rebuild TensorFlow with the appropriate compiler flags\.$/,
];

/** True for a start-up or INFO/WARNING line of a native library, which the report leaves out. */
export function isLibraryLogLine(line: string): boolean {
  return LIBRARY_LINES.some((pattern) => pattern.test(line));
}

/**
 * Copies a child's stderr to `out` line by line, without the libraries' own
 * log lines; resolves when the stream ends (the last partial line included).
 */
export function forwardStderr(from: Readable, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    let pending = '';
    const emit = (line: string) => {
      if (!isLibraryLogLine(line)) out.write(`${line}\n`);
    };
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) emit(line);
    });
    const end = () => {
      if (pending !== '') emit(pending);
      pending = '';
      resolve();
    };
    from.on('end', end);
    from.on('close', end);
    from.on('error', end);
  });
}
