/** `run --browsers`: the browsers each browser engine runs in (src/scenarios/classify/browser-expansion.ts), apart so the options table gains one line. */
import type { FlagSpec } from '../../core/flag-spec.js';

export const BROWSERS_FLAG: FlagSpec = {
  name: 'browsers',
  kind: 'value',
  arg: 'chromium,firefox',
  help:
    'browsers each browser engine in --engines runs in, each (engine, browser) its own row: chromium, firefox, webkit, and the opt-ins firefox-webgpu ' +
    '(Firefox WebGPU prefs) and webkit-sab (JSC_useSharedArrayBuffer=true); found by path, never downloaded; default chromium',
};
