/**
 * The kernel's own high-water mark of the process's resident set: exact,
 * and read without a sampling thread competing with the engine for cores.
 */
import { writeFileSync } from 'node:fs';

/** Resets the mark to the current RSS (Linux `/proc/self/clear_refs` 5); false where that is not possible. */
export function resetKernelPeakRss(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** The mark in bytes (getrusage's maxRSS, since process start or the last reset). */
export function kernelPeakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}
