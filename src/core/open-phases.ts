/**
 * Times the parts of an engine open apart (package import, placement probe,
 * session create), so the reports' `open` is the session create alone on
 * every engine: an isolated child pays the import, an in-process run finds
 * it cached, and only onnxruntime-node and transformers.js build a
 * placement-profiling session. Mixing those in one figure compared unlike work.
 */
import type { OpenPhases } from './engine-session.js';

export class OpenPhaseClock {
  private importMs: number | null = null;
  private placementProbeMs: number | null = null;
  private createMs = 0;

  /** Runs `work` and adds its duration to `phase`. */
  async time<T>(phase: keyof OpenPhases, work: () => Promise<T> | T): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      const ms = performance.now() - start;
      if (phase === 'importMs') this.importMs = (this.importMs ?? 0) + ms;
      else if (phase === 'placementProbeMs') this.placementProbeMs = (this.placementProbeMs ?? 0) + ms;
      else this.createMs += ms;
    }
  }

  phases(): OpenPhases {
    return { importMs: this.importMs, placementProbeMs: this.placementProbeMs, createMs: this.createMs };
  }
}

/** `phases` with the import time spent before the open (the engine's probe, which imports its package) added. */
export function withImportBefore(phases: OpenPhases, importBeforeMs: number): OpenPhases {
  return { ...phases, importMs: (phases.importMs ?? 0) + importBeforeMs };
}
