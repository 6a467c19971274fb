/**
 * One `inferbench startup` run from a plain-JSON config, through the one
 * run driver (engines, run folder, save after every cell, Ctrl-C, final
 * files): per engine, `rounds` starts, each round in a fresh child process
 * through the isolated launcher its caller gives (`isolatedOf(hooks)`),
 * or in this process with `isolate` off. Also its config from the command
 * line's flags, which is all the CLI needs to run and rerun it.
 */
import { checkRange } from '../../../src/core/option-ranges.js';
import { DEFAULT_OUT_DIR } from '../../../src/core/output-folder.js';
import type { Launcher } from '../../../src/core/launch-jobs.js';
import type { EngineRegistry } from '../../../src/core/engine-registry.js';
import { standaloneRegistry } from '../../../src/models/standalone-registry.js';
import { driveRun, type RunOutcome } from '../../../src/scenarios/run-driver.js';
import { isolatedOf, type ScenarioFlags, type ScenarioProgress, type ScenarioRunHooks } from '../../../src/scenarios/scenario-registry.js';
import { startupLaunch, timeStarts, type StartupJob } from './startup-child-job.js';
import { writeStartupFiles } from './startup-files.js';
import { STARTUP, startupCell, type StartupRecord, type StartupSample } from './startup-results.js';

/** Everything that defines a startup run, as results.json and the history record it. */
export interface StartupConfig {
  readonly command: typeof STARTUP;
  readonly engines: readonly string[];
  readonly rounds: number;
  /** Each round in a fresh child process (default true). */
  readonly isolate: boolean;
  readonly out: string;
}

export const STARTUP_DEFAULTS = { engines: ['onnx-cpu'], rounds: 2 } as const;

/** A config with the defaults filled in, for callers that build one from flags or JSON. */
export function startupConfig(partial: Partial<StartupConfig>): StartupConfig {
  return { command: STARTUP, engines: partial.engines ?? STARTUP_DEFAULTS.engines, rounds: partial.rounds ?? STARTUP_DEFAULTS.rounds, isolate: partial.isolate ?? true, out: partial.out ?? DEFAULT_OUT_DIR };
}

/** Checks every number before anything starts; messages name `--rounds` or `rounds` as the caller speaks. */
export function checkStartupConfig(config: StartupConfig, audience: 'flag' | 'field'): void {
  checkRange('rounds', config.rounds, audience);
}

/** The config of `inferbench startup`'s flags (the registration's `configFromFlags`). */
export function startupFromFlags(flags: ScenarioFlags): StartupConfig {
  const rounds = flags.positiveInt('rounds');
  const config = startupConfig({ out: flags.out, isolate: !flags.given('no-isolate'), ...(rounds !== undefined ? { rounds } : {}), ...(flags.list('engines') ? { engines: flags.list('engines') } : {}) });
  checkStartupConfig(config, 'flag');
  return config;
}

/** Measures `engines` for `rounds` rounds: through `launch` (a child per round), or in this process. */
export async function measureStarts(engines: readonly string[], rounds: number, registry: EngineRegistry, launch: Launcher | null, signal?: AbortSignal): Promise<Map<string, StartupSample[]>> {
  const samples = new Map(engines.map((e) => [e, [] as StartupSample[]]));
  const keep = async (sample: StartupSample): Promise<void> => void samples.get(sample.engine)?.push(sample);
  for (let round = 1; round <= rounds && signal?.aborted !== true; round++) {
    const job: StartupJob = { engines, round, parentPid: process.pid };
    if (launch) await launch(startupLaunch(job), { onStart: () => undefined, onResult: keep }, signal);
    else await timeStarts(job, registry, { start: () => undefined, result: keep });
  }
  return samples;
}

/** Runs the startup benchmark of `config`; the sweep records one cell per engine once its rounds are timed. */
export function executeStartup(config: StartupConfig, hooks: ScenarioRunHooks<StartupRecord, ScenarioProgress>): Promise<RunOutcome<StartupRecord>> {
  checkStartupConfig(config, hooks.names ?? 'field');
  const registry = hooks.registry ?? standaloneRegistry();
  return driveRun(
    {
      kind: STARTUP,
      out: config.out,
      png: false,
      registry,
      engines: config.engines,
      models: [],
      recordedConfig: (engines, unavailableEngines) => ({ ...config, enginesResolved: engines, unavailableEngines }),
      sweep: async (engines, record) => {
        const launch = config.isolate ? isolatedOf(hooks) : null;
        for (const [index, engine] of engines.entries()) {
          if (hooks.signal?.aborted === true) return;
          hooks.onProgress?.({ kind: 'cell-start', total: engines.length, engine, batchSize: 1 } as ScenarioProgress);
          const samples = await measureStarts([engine], config.rounds, registry, launch, hooks.signal);
          await record(startupCell(engine, samples.get(engine) ?? []));
          hooks.onProgress?.({ kind: 'cell-done', total: engines.length, index } as ScenarioProgress);
        }
      },
      write: (record, dir) => writeStartupFiles(record, dir),
    },
    hooks,
  );
}
