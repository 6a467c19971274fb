/**
 * Flags that several scenario commands share word for word (`--out`,
 * `--no-isolate`…): one definition each, so their help cannot drift apart.
 * A flag whose help differs per scenario stays in that scenario's table.
 */
import type { FlagSpec } from '../core/flag-spec.js';

export const ENGINES_FLAG: FlagSpec = { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run (see `inferbench engines`); default: every available engine' };
export const NO_ISOLATE_FLAG: FlagSpec = { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per engine open' };
export const OUT_FLAG: FlagSpec = { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' };
export const THREADS_FLAG: FlagSpec = { name: 'threads', kind: 'value', range: 'threads', arg: 'N', help: 'intra-op threads; engines that cannot set them are skipped; default: engine default' };
export const TEXT_COLUMN_FLAG: FlagSpec = { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected' };
/** `--engine-options`: a variant axis per engine (engine-options.ts); repeatable, once per engine. */
export const ENGINE_OPTIONS_FLAG: FlagSpec = {
  name: 'engine-options',
  kind: 'value',
  repeatable: true,
  arg: 'ENGINE:key=v1|v2;key2=w',
  help: 'run an engine of --engines with these options instead of its defaults, each combination of values its own row (`onnx-cpu [graphOptimizationLevel=disabled]`); once per engine; `inferbench engines --options ID` lists its keys',
};
