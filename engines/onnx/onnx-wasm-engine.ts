import { ortLogSeverity } from '../../src/core/library-logs.js';
import { readFile } from 'node:fs/promises';
import type { Availability, Engine, ResolvedSessionOptions } from '../../src/core/engine.js';
import { declaredBy } from '../engine-target.js';
import type { EngineSession, SessionDescription } from '../../src/core/engine-session.js';
import { CellSkip } from '../../src/core/errors.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import { installedVersion } from '../../src/core/package-info.js';
import { ortWebProfiler, type ProfilingOrtSession } from './ort-profile.js';
import { canonicalOptions } from '../../src/core/engine-options.js';
import { ortSessionOptions } from './onnx-options.js';
import { fromOrtOutputs, preparedOrtCall, toOrtFeeds, type OrtRunner, type OrtTensorCtor } from './ort-tensors.js';

/** Threads the wasm runtime was initialised with; fixed for the life of the process. */
let initialisedThreads: number | undefined;

/**
 * Why this engine gives skipped `inferbench train` cells, checked against
 * the installed packages (test/engines/train-onnx-skipped.test.ts):
 * onnxruntime-web 1.30.0 exports the same inference-only API as
 * onnxruntime-node (see ORT_NODE_NO_TRAINING in ./onnx-node-engine.ts), and
 * onnxruntime-common 1.30.0 declares no TrainingSession.
 */
const ORT_WEB_NO_TRAINING =
  'onnxruntime-web has no training API: onnxruntime-web 1.30 exports only InferenceSession, Tensor, env, registerBackend ' +
  'and TRACE helpers, and onnxruntime-common declares no TrainingSession';

/**
 * onnxruntime-web's WebAssembly build running inside Node. Its thread count
 * is global and fixed once the runtime starts, so a later cell asking for a
 * different count is skipped with that reason rather than silently run with
 * the first count.
 */
export function createOnnxWasmEngine(): Engine {
  return {
    id: 'onnx-wasm',
    target: { family: 'onnx', device: 'wasm' },
    ...declaredBy({ family: 'onnx', device: 'wasm' }),
    trainingUnsupported: ORT_WEB_NO_TRAINING,
    description: 'ONNX Runtime Web (onnxruntime-web), WebAssembly in Node',

    async probe(): Promise<Availability> {
      const version = installedVersion('onnxruntime-web');
      if (version === null) {
        return { available: false, reason: 'onnxruntime-web is not installed', enable: 'npm install onnxruntime-web' };
      }
      try {
        await import('onnxruntime-web');
      } catch (err) {
        return { available: false, reason: `onnxruntime-web failed to load: ${(err as Error).message}`, enable: 'reinstall onnxruntime-web' };
      }
      return { available: true, versions: { 'onnxruntime-web': version } };
    },

    async open(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      const clock = new OpenPhaseClock();
      const ort = await clock.time('importMs', () => import('onnxruntime-web'));
      const values = options.engineOptions ?? {};
      // numThreads of a variant overrides --threads: it names the threads this row asks for.
      const threads = values['numThreads'] !== undefined ? Number(values['numThreads']) : (options.threads ?? 1);
      const proxy = values['proxy'] === 'true';
      if (initialisedThreads !== undefined && initialisedThreads !== threads) {
        throw new CellSkip(
          `onnx-wasm already started with ${initialisedThreads} thread(s) in this process; ${threads} needs a separate process`,
        );
      }
      ort.env.wasm.numThreads = threads;
      ort.env.wasm.simd = true;
      ort.env.wasm.proxy = proxy;
      // Read the bytes ourselves: onnxruntime-web treats a string as a URL to fetch.
      // The first create in a process also starts the wasm runtime (compile and instantiate): counted as create.
      const sessionOptions = ortSessionOptions({ executionProviders: ['wasm'], graphOptimizationLevel: 'all', logSeverityLevel: ortLogSeverity() }, options.engineOptions);
      const session = await clock.time('createMs', async () => ort.InferenceSession.create(new Uint8Array(await readFile(onnxPath)), sessionOptions as never));
      const phases = clock.phases();
      initialisedThreads = threads;
      // onnxruntime-web lowers numThreads to 1 when the host cannot run wasm threads; report what it kept.
      const actualThreads = typeof ort.env.wasm.numThreads === 'number' && ort.env.wasm.numThreads > 0 ? ort.env.wasm.numThreads : threads;
      const description: SessionDescription = {
        engine: 'onnx-wasm',
        backend: 'wasm',
        threads: actualThreads,
        precision: options.precision,
        versions: { 'onnxruntime-web': installedVersion('onnxruntime-web') ?? 'unknown' },
        notes: actualThreads > 1 ? ['wasm threads run on worker_threads'] : [],
        engineOptions: canonicalOptions(values),
        optionReadback: { threads: String(actualThreads), proxy: String(ort.env.wasm.proxy === true) },
        ...wasmIgnored(values, threads, actualThreads),
      };
      const Tensor = ort.Tensor as unknown as OrtTensorCtor;
      return {
        async run(inputs) {
          return fromOrtOutputs(await session.run(toOrtFeeds(Tensor, inputs) as never) as never);
        },
        // onnxruntime-web copies inputs into the wasm heap and outputs out of it inside run(): engine work, still timed.
        prepareCall: (inputs) => preparedOrtCall(session as unknown as OrtRunner, Tensor, inputs),
        describe: () => description,
        openPhases: () => phases,
        dispose: () => session.release(),
        // run --profile: a second session with ORT's profiler on, after the timed rounds (ort-profile.ts).
        profiler: () =>
          ortWebProfiler(async (extra) => (await ort.InferenceSession.create(new Uint8Array(await readFile(onnxPath)), { ...sessionOptions, ...extra })) as unknown as ProfilingOrtSession, {}, Tensor),
      };
    },
  };
}

/** Variant values onnxruntime-web took but did not honour: fewer threads than asked, a proxy it cannot start in Node. */
function wasmIgnored(values: Readonly<Record<string, string>>, asked: number, used: number): { ignoredOptions?: string[] } {
  const out: string[] = [];
  if (values['numThreads'] !== undefined && used !== asked) out.push(`numThreads=${asked} lowered to ${used} by onnxruntime-web (the build or host cannot run that many wasm threads)`);
  // onnxruntime-web's proxy worker exists only in a browser main thread (lib/wasm/proxy-wrapper.ts: `isProxy` needs `document`); in Node the runtime runs here.
  if (values['proxy'] === 'true') out.push('proxy=true ignored: onnxruntime-web proxies only in a browser main thread, so in Node the runtime ran on the calling thread');
  return out.length > 0 ? { ignoredOptions: out } : {};
}
