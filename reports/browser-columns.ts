/**
 * The CSV's (and Parquet's, Arrow's) browser columns added with
 * `run --browsers`, last in the file so that earlier files' columns keep
 * their places. Each reads one field of a row's page read-back
 * (src/core/engine-session.ts BrowserReadback); Node rows leave them empty.
 */
import type { BrowserReadback } from '../src/core/engine-session.js';

type Field = string | number | null | undefined;

const flag = (value: boolean | undefined): string | undefined => (value === undefined ? undefined : String(value));

export const BROWSER_COLUMNS: readonly (readonly [string, (b: BrowserReadback | undefined) => Field])[] = [
  // The browser as --browsers names it (chromium, firefox, firefox-webgpu, webkit, webkit-sab) and its version alone.
  ['browser_name', (b) => b?.browserName ?? (b ? 'chromium' : undefined)],
  ['browser_version', (b) => b?.browserVersion ?? b?.browser.replace(/^\D+/, '')],
  // The page's clock step, and how many calls were shorter than 20 steps and so timed in groups and divided.
  ['timer_resolution_ms', (b) => b?.timerResolutionMs],
  ['timed_in_groups', (b) => (b?.timing ? `${b.timing.groupedCalls} of ${b.timing.calls} calls (largest group ${b.timing.largestGroup})` : undefined)],
  ['shared_array_buffer', (b) => flag(b?.sharedArrayBuffer)],
  // hardwareConcurrency as the browser reports it (WebKitGTK: 4 on a 2-core machine) beside the machine's own count.
  ['hardware_concurrency', (b) => b?.hardwareConcurrency],
  ['machine_cores', (b) => b?.machineCores],
  ['webgpu_features', (b) => b?.webgpuFeatures?.join(' ')],
];
