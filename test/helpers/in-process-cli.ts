/**
 * A CLI function run in this process, where a scenario the test registered
 * is there to dispatch (the `inferbench` binary loads no scenario module),
 * with what it printed. The CLI writes text; bytes (the test runner's own
 * messages to its parent) pass through.
 */
export async function captured(command: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  const text = { stdout: '', stderr: '' };
  const into = (key: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (typeof chunk !== 'string') return writes[key](chunk, ...rest);
      text[key] += chunk;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = into('stdout');
  process.stderr.write = into('stderr');
  try {
    const code = await command();
    return { code, ...text };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}
