import { ENGINE_IDS, type Availability, type Engine } from './engine.js';
import { CellSkip, UserError } from './errors.js';

/** Creates an engine object; importing its package is deferred to `probe`/`load`. */
export type EngineFactory = () => Promise<Engine>;

/**
 * Built-in engines. Each factory imports its module on first use only, so
 * commands such as `--help` never load a native runtime.
 */
export const BUILTIN_ENGINE_FACTORIES: Readonly<Record<string, EngineFactory>> = {
  'onnx-cpu': async () => (await import('../../engines/onnx/onnx-node-engine.js')).createOnnxNodeEngine('cpu'),
  'onnx-cuda': async () => (await import('../../engines/onnx/onnx-node-engine.js')).createOnnxNodeEngine('cuda'),
  'onnx-tensorrt': async () => (await import('../../engines/onnx/onnx-node-engine.js')).createOnnxNodeEngine('tensorrt'),
  'onnx-wasm': async () => (await import('../../engines/onnx/onnx-wasm-engine.js')).createOnnxWasmEngine(),
  'tfjs-node': async () => (await import('../../engines/tfjs/tfjs-engine.js')).createTfjsEngine('node'),
  'tfjs-node-gpu': async () => (await import('../../engines/tfjs/tfjs-engine.js')).createTfjsEngine('node-gpu'),
  'tfjs-wasm': async () => (await import('../../engines/tfjs/tfjs-engine.js')).createTfjsEngine('wasm'),
  'tfjs-cpu': async () => (await import('../../engines/tfjs/tfjs-engine.js')).createTfjsEngine('cpu'),
  'transformers-js': async () => (await import('../../engines/transformers-js/transformers-js-engine.js')).createTransformersJsEngine('cpu'),
  'transformers-js-cuda': async () => (await import('../../engines/transformers-js/transformers-js-engine.js')).createTransformersJsEngine('cuda'),
};

/** An engine with the outcome of its one probe. */
export interface EngineStatus {
  readonly id: string;
  readonly engine: Engine | null;
  readonly availability: Availability;
}

/**
 * Knows every engine by id, creates and probes each lazily and at most once
 * (concurrent callers share the same promise), after onnxruntime-common's
 * backend registry.
 */
export class EngineRegistry {
  private readonly factories: Map<string, EngineFactory>;
  private readonly statuses = new Map<string, Promise<EngineStatus>>();

  constructor(factories: Readonly<Record<string, EngineFactory>> = BUILTIN_ENGINE_FACTORIES) {
    this.factories = new Map(Object.entries(factories));
  }

  /** Adds or replaces an engine, e.g. a mock in tests or a plug-in engine. */
  register(engine: Engine): void {
    this.factories.set(engine.id, async () => engine);
    this.statuses.delete(engine.id);
  }

  /** Every registered id, built-ins first in table order. */
  ids(): string[] {
    const builtins = ENGINE_IDS.filter((id) => this.factories.has(id));
    const others = [...this.factories.keys()].filter((id) => !(ENGINE_IDS as readonly string[]).includes(id));
    return [...builtins, ...others];
  }

  /**
   * Validates user-given engine names. An unknown name is a user error that
   * lists the valid ones, so a typo is fixed in one try.
   */
  parseNames(names: readonly string[], flag = '--engines'): string[] {
    const known = this.ids();
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length > 0) {
      throw new UserError(
        `unknown engine${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} in ${flag}`,
        `use one or more of: ${known.join(', ')}`,
      );
    }
    return [...new Set(names)];
  }

  /** Creates and probes one engine, once; a failing factory counts as unavailable. */
  status(id: string): Promise<EngineStatus> {
    let pending = this.statuses.get(id);
    if (!pending) {
      pending = this.createAndProbe(id);
      this.statuses.set(id, pending);
    }
    return pending;
  }

  /** Probes all engines (sequentially: probes import native modules and spawn nvidia-smi). */
  async statusAll(ids: readonly string[] = this.ids()): Promise<EngineStatus[]> {
    const out: EngineStatus[] = [];
    for (const id of ids) out.push(await this.status(id));
    return out;
  }

  /** The engine if available, otherwise a CellSkip carrying the reason and the way to enable it. */
  async require(id: string): Promise<Engine> {
    const s = await this.status(id);
    if (s.engine && s.availability.available) return s.engine;
    throw new CellSkip(unavailableText(s));
  }

  /**
   * Of the requested engines, the ones that can run. When none can, throws a
   * UserError that lists every engine with its reason, since a run with no
   * engine would measure nothing.
   */
  async selectRunnable(ids: readonly string[]): Promise<{ runnable: string[]; unavailable: EngineStatus[] }> {
    const statuses = await this.statusAll(ids);
    const runnable = statuses.filter((s) => s.availability.available).map((s) => s.id);
    const unavailable = statuses.filter((s) => !s.availability.available);
    if (runnable.length === 0) {
      throw new UserError(
        `none of the requested engines can run on this machine:\n${unavailable.map((s) => `  ${s.id}: ${unavailableText(s)}`).join('\n')}`,
        'pick an available engine (see `inferbench engines`) or follow the instructions above',
      );
    }
    return { runnable, unavailable };
  }

  private async createAndProbe(id: string): Promise<EngineStatus> {
    const factory = this.factories.get(id);
    if (!factory) {
      return { id, engine: null, availability: { available: false, reason: 'not registered', enable: `known engines: ${this.ids().join(', ')}` } };
    }
    let engine: Engine;
    try {
      engine = await factory();
    } catch (err) {
      return { id, engine: null, availability: { available: false, reason: `engine module failed to load: ${(err as Error).message}`, enable: 'reinstall inferbench' } };
    }
    try {
      return { id, engine, availability: await engine.probe() };
    } catch (err) {
      return { id, engine, availability: { available: false, reason: `probe failed: ${(err as Error).message}`, enable: 'see the error above' } };
    }
  }
}

/** "reason (how to enable)" for an unavailable engine. */
export function unavailableText(s: EngineStatus): string {
  return s.availability.available ? 'available' : `unavailable: ${s.availability.reason} (${s.availability.enable})`;
}

/** The registry commands and models share unless given their own. */
export const defaultRegistry = new EngineRegistry();
