/**
 * The engines' native libraries log on their own: libtensorflow (tfjs-node)
 * prints absl's "log messages before absl::InitializeLog()" banner and
 * oneDNN and CPU-feature INFO lines to stderr while it loads, before
 * TF_CPP_MIN_LOG_LEVEL can take effect (it hides only later lines). Those
 * lines landed in every report. Unless the user asks for them (`--verbose`,
 * which sets INFERBENCH_VERBOSE=1 for this process and its children), the
 * variable is set before the library loads, and the stderr of every child
 * process that loads an engine goes through `forwardStderr`, which drops the
 * library's INFO and WARNING lines (libtensorflow's and onnxruntime's, whose
 * sessions also log errors only: ortLogSeverity) and passes everything else
 * on, without ANSI escapes when stderr is not a terminal.
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
  // onnxruntime's format: 2026-11-27 13:00:00.123456789 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] …
  // (verbose, info and warning only; errors stay).
  /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \[[VIW]:onnxruntime:/,
  // Dawn's Vulkan/Wayland start-up line when XDG_RUNTIME_DIR is unset (every WebGPU load in a container or over ssh); harmless.
  /^error: XDG_RUNTIME_DIR is invalid or not set in the environment\.$/,
  // The second line of the CPU-feature notice.
  /^To enable the following instructions: .*rebuild TensorFlow with the appropriate compiler flags\.$/,
];

/** ANSI escape sequences (colours, cursor moves) that native libraries write whether or not stderr is a terminal. */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]/g;

/** `line` without ANSI escape sequences. */
export function stripAnsi(line: string): string {
  return line.replace(ANSI, '');
}

/** True for a start-up or INFO/WARNING line of a native library (coloured or not), which the report leaves out. */
export function isLibraryLogLine(line: string): boolean {
  const plain = stripAnsi(line);
  return LIBRARY_LINES.some((pattern) => pattern.test(plain));
}

/** onnxruntime's session `logSeverityLevel`: 3 (errors only) unless --verbose asked for the libraries' lines (2, its default). */
export function ortLogSeverity(env: NodeJS.ProcessEnv = process.env): 2 | 3 {
  return libraryLogsWanted(env) ? 2 : 3;
}

/**
 * Copies a child's stderr to `out` line by line, without the libraries' own
 * log lines; resolves when the stream ends (the last partial line included).
 */
export function forwardStderr(from: Readable, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    let pending = '';
    // A file or pipe gets no raw escape sequences, from a library or anything else the child writes.
    const plain = (out as Writable & { isTTY?: boolean }).isTTY !== true;
    const emit = (line: string) => {
      if (!isLibraryLogLine(line)) out.write(`${plain ? stripAnsi(line) : line}\n`);
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

/** ONNX Runtime's switch for its own telemetry (core/platform/posix/telemetry.cc since 1.30 on Linux). */
export const ORT_TELEMETRY_ENV = 'ORT_DISABLE_TELEMETRY';

/**
 * Turns ONNX Runtime's Linux telemetry off unless the user set the switch
 * either way. onnxruntime-node 1.30 starts it when the library loads: an
 * empty /tmp/mat-debug-<pid>.log left by every process that loads ORT (an
 * isolated sweep leaves one per cell), a SQLite event store under
 * ~/.cache/Microsoft/DeveloperTools, a device id read from /etc/machine-id,
 * and a thread of its own beside the one being measured, which flushes
 * events (and uploads them where it has a network) whenever it likes. Read by
 * the library at load, so it is set before onnxruntime-node or transformers.js
 * is imported; children inherit it. ORT keeps it off by itself on a host
 * with a CI marker (`CI`, `GITHUB_ACTIONS` and others), so only a user's
 * machine shows the difference.
 */
export function quietOrtTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  if (env[ORT_TELEMETRY_ENV] === undefined) env[ORT_TELEMETRY_ENV] = '1';
}
