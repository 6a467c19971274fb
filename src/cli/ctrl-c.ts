/** Exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/**
 * Ctrl-C handling shared by the measuring commands: the first Ctrl-C aborts
 * `signal` so the command stops after the current unit of work and still
 * writes what it measured; a second one exits at once. `release()` removes
 * the handler.
 */
export function interruptOnCtrlC(unit: string): { readonly signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write(`\ninferbench: stopping after the current ${unit} (Ctrl-C again to quit now)…\n`);
      controller.abort();
    } else {
      process.exit(EXIT_INTERRUPTED);
    }
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, release: () => process.off('SIGINT', onSigint) };
}
