/**
 * Whether this process is an isolated child: a fresh Node started for one
 * engine open (src/launchers/scenario-child.ts), whose parent has already
 * probed that engine and found it available.
 *
 * Why engines ask: tfjs-node's probe imports libtensorflow in a probe child
 * of its own, so that the prober never fixes libtensorflow's thread pools
 * before an open chose them (engines/tfjs/native-library.ts). In an isolated
 * child the open follows at once and its in-process import, with the
 * requested threads, is itself the probe; a probe child there was ~1.7 s of
 * CPU per round thrown away (and, exiting mid-round, it was once counted as
 * other processes' work by the host-noise reading).
 */
let isolated = false;

/** Called once by the isolated child's entry, before any engine is created. */
export function markIsolatedProcess(): void {
  isolated = true;
}

export function inIsolatedProcess(): boolean {
  return isolated;
}
