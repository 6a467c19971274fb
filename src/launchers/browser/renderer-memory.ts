/**
 * Peak RSS of the Chromium renderer that ran a browser cell's page. The
 * Node process only drives the page, so its own RSS says nothing about the
 * engine, and a memory table would otherwise set the driver's ~100 MB beside
 * onnx-cpu's model-sized RSS as if comparable.
 *
 * Chromium's DevTools protocol lists its processes (`SystemInfo.getProcessInfo`:
 * type, pid, CPU time) but does not say which renderer hosts which page, and
 * Chromium keeps spare renderers around. The benchmark page is the only page
 * its browser has open, so the page's renderer is the one whose CPU time grew
 * most over the timed loop; the row names the pid and this rule. Its peak is
 * the kernel's high-water mark (`VmHWM` in /proc/<pid>/status), reset before
 * the loop through /proc/<pid>/clear_refs like the Node engines' own: exact,
 * and nothing samples during the loop. The GPU process (WebGL/WebGPU on
 * SwiftShader) is not included, and the row says so.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ResidentMemoryProbe, ResidentMemoryWindow } from '../../core/engine-session.js';

/** The part of a browser-level CDP session used here (playwright-core's `newBrowserCDPSession()`). */
export interface ProcessInfoSource {
  send(method: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: readonly { type: string; id: number; cpuTime: number }[] }>;
}

interface RendererAtBegin {
  readonly cpuTime: number;
  readonly rssBytes: number;
  /** The high-water mark was reset; false leaves the renderer's lifetime peak. */
  readonly reset: boolean;
}

/** A probe for one page's browser; `procRoot` is `/proc` except in tests. */
export function rendererMemory(openSource: () => Promise<ProcessInfoSource>, procRoot = '/proc'): ResidentMemoryProbe {
  let source: Promise<ProcessInfoSource> | null = null;
  let atBegin: Map<number, RendererAtBegin> | null = null;
  let beginFailure = 'the renderer memory probe did not start';

  const renderers = async () => {
    source ??= openSource();
    const info = await (await source).send('SystemInfo.getProcessInfo');
    return info.processInfo.filter((p) => p.type === 'renderer');
  };

  return {
    async begin() {
      atBegin = null;
      try {
        if (process.platform !== 'linux') throw new Error(`no /proc on ${process.platform}`);
        const found = new Map<number, RendererAtBegin>();
        for (const r of await renderers()) {
          const status = readStatus(procRoot, r.id);
          if (status === null) continue;
          found.set(r.id, { cpuTime: r.cpuTime, rssBytes: status.rssBytes, reset: resetMark(procRoot, r.id) });
        }
        if (found.size === 0) throw new Error('Chromium listed no renderer process that /proc can read');
        atBegin = found;
      } catch (err) {
        beginFailure = `no renderer RSS (${(err as Error).message}); these are the Node driver's figures`;
      }
    },
    async end(): Promise<ResidentMemoryWindow | { readonly unavailable: string }> {
      const began = atBegin;
      atBegin = null;
      if (began === null) return { unavailable: beginFailure };
      try {
        let best: { pid: number; grew: number } | null = null;
        for (const r of await renderers()) {
          const then = began.get(r.id);
          if (then === undefined) continue;
          const grew = r.cpuTime - then.cpuTime;
          if (best === null || grew > best.grew) best = { pid: r.id, grew };
        }
        const then = best === null ? undefined : began.get(best.pid);
        const status = best === null ? null : readStatus(procRoot, best.pid);
        if (best === null || then === undefined || status === null) throw new Error('the renderer that ran the page has gone');
        const scope = then.reset ? 'its kernel high-water mark over the timed loop' : 'its kernel high-water mark since it started (the mark could not be reset)';
        return {
          baselineRssBytes: then.rssBytes,
          peakRssBytes: Math.max(status.peakBytes, status.rssBytes),
          label: 'Chromium renderer',
          process: `Chromium renderer (pid ${best.pid}, the renderer with the most CPU time in the loop: ${best.grew.toFixed(2)} s), ${scope}; the GPU process is not included`,
        };
      } catch (err) {
        return { unavailable: `no renderer RSS (${(err as Error).message}); these are the Node driver's figures` };
      }
    },
  };
}

/** VmRSS and VmHWM of a process in bytes; null once it has exited. */
function readStatus(procRoot: string, pid: number): { rssBytes: number; peakBytes: number } | null {
  let text: string;
  try {
    text = readFileSync(`${procRoot}/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  const rssBytes = kb('VmRSS');
  const peakBytes = kb('VmHWM');
  return Number.isFinite(rssBytes) && Number.isFinite(peakBytes) ? { rssBytes, peakBytes } : null;
}

/** Resets the process's high-water mark to its current RSS (clear_refs 5), as kernel-peak-rss does for this process. */
function resetMark(procRoot: string, pid: number): boolean {
  try {
    writeFileSync(`${procRoot}/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
