import type { Availability, Engine } from './engine.js';
import { CellSkip, UserError } from './errors.js';
import { nameTable } from './name-lookup.js';
import { engineLeftOutOfPack } from './offline-pack.js';
import { baseEngineId, checkVariantId, parseVariantId, type EngineOptionValues } from './engine-options.js';

/** Creates an engine object; importing its package is deferred to `probe`/`open`. */
export type EngineFactory = () => Promise<Engine>;

const registered = new Map<string, EngineFactory>();

/**
 * Declares an engine: each engine family's `register.ts` calls this for its
 * ids (after onnxruntime-common's `registerBackend`), so an id is written
 * once, in the engine's own folder, and the core lists none. The order of
 * calls is the order tables list engines in.
 */
export function registerEngine(id: string, factory: EngineFactory): void {
  if (registered.has(id)) throw new Error(`engine "${id}" is registered twice`);
  registered.set(id, factory);
}

/** Every registered engine id, in registration (table) order. */
export function registeredEngineIds(): string[] {
  return [...registered.keys()];
}

/** The registered factories by id, as a fresh frozen record. */
export function registeredEngineFactories(): Readonly<Record<string, EngineFactory>> {
  // Null prototype: `BUILTIN_ENGINE_FACTORIES[name]` must not find `constructor` (see name-lookup.ts).
  return nameTable(Object.fromEntries(registered));
}

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

  /** Without `factories`, every engine registered so far (the built-ins once `engines/registry.ts` is loaded). */
  constructor(factories?: Readonly<Record<string, EngineFactory>>) {
    this.factories = factories ? new Map(Object.entries(factories)) : new Map(registered);
  }

  /** Adds or replaces an engine, e.g. a mock in tests or a plug-in engine. */
  register(engine: Engine): void {
    this.factories.set(engine.id, async () => engine);
    this.statuses.delete(engine.id);
  }

  private readonly modules: string[] = [];

  /**
   * Notes the plug-in module (its path) whose engines were registered here
   * (`registerEngineModules`, launchers/engine-modules.ts), so an isolated
   * child of a run with this registry registers them too: a module path,
   * unlike an engine object, can be sent to another process.
   */
  addEngineModule(path: string): void {
    if (!this.modules.includes(path)) this.modules.push(path);
  }

  /** The plug-in modules registered here, in order (`addEngineModule`). */
  engineModules(): readonly string[] {
    return [...this.modules];
  }

  /** Every registered id, built-ins first in table order. */
  ids(): string[] {
    const builtins = registeredEngineIds().filter((id) => this.factories.has(id));
    const others = [...this.factories.keys()].filter((id) => !registered.has(id));
    return [...builtins, ...others];
  }

  /**
   * The ids a listing shows (`inferbench engines`, the hint of an unknown
   * name, a worker's default offer): every id but a browser engine's runs in
   * the other browsers (`<id>@<browser>`, engines/browser/browser-variants.ts),
   * which `run --browsers` names; they are still known to parseNames.
   */
  listedIds(): string[] {
    return this.ids().filter((id) => !id.includes('@'));
  }

  /**
   * Validates user-given engine names. An unknown name is a user error that
   * lists the valid ones, so a typo is fixed in one try.
   */
  parseNames(names: readonly string[], flag = '--engines'): string[] {
    const known = this.ids();
    // An options variant (`onnx-cpu [k=v]`, from a stored config or the API) is known when its engine is and its values check.
    const unknown = names.filter((n) => !known.includes(baseEngineId(n)));
    if (unknown.length > 0) {
      throw new UserError(
        `unknown engine${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} in ${flag}`,
        `use one or more of: ${this.listedIds().join(', ')}${known.some((id) => id.includes('@')) ? ' (browser engines in other browsers: --browsers, or <id>@firefox, @webkit…)' : ''}`,
      );
    }
    for (const n of names) checkVariantId(n, flag);
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

  /**
   * Where an engine runs, from its object alone: no probe, so choosing the
   * default engines never starts a browser. Unknown ids and failing
   * factories count as Node engines (their probe will say why they fail).
   */
  async runsIn(id: string): Promise<'node' | 'browser'> {
    const factory = this.factories.get(baseEngineId(id));
    if (!factory) return 'node';
    try {
      return (await factory()).runsIn ?? 'node';
    } catch {
      return 'node';
    }
  }

  /**
   * Ids whose engine object has `capability` (a method such as
   * `openTrainer`), read without probing, so asking starts no browser and
   * fixes no thread pool. Failing factories have none.
   */
  async idsWith(capability: 'openTrainer' | 'openGenerator'): Promise<string[]> {
    const out: string[] = [];
    for (const id of this.ids()) {
      const factory = this.factories.get(id);
      const engine = factory ? await factory().catch(() => null) : null;
      if (engine && typeof engine[capability] === 'function') out.push(id);
    }
    return out;
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

  /**
   * A variant gets an engine object of its own from its engine's factory,
   * configured before its probe (options a runtime reads as it starts), and
   * the values checked against the engine's table.
   */
  private async createVariant(id: string, base: string, values: EngineOptionValues): Promise<EngineStatus> {
    const factory = this.factories.get(base);
    if (!factory) return { id, engine: null, availability: { available: false, reason: `engine ${base} is not registered`, enable: `known engines: ${this.ids().join(', ')}` } };
    try {
      checkVariantId(id);
    } catch (err) {
      return { id, engine: null, availability: { available: false, reason: (err as Error).message, enable: (err as UserError).fix ?? 'check the options' } };
    }
    let engine: Engine;
    try {
      engine = await factory();
      engine.configure?.(values);
    } catch (err) {
      return { id, engine: null, availability: { available: false, reason: `engine module failed to load: ${(err as Error).message}`, enable: 'reinstall inferbench' } };
    }
    const wrapped = variantEngine(engine, id, values);
    try {
      return { id, engine: wrapped, availability: await engine.probe() };
    } catch (err) {
      return { id, engine: wrapped, availability: { available: false, reason: `probe failed: ${(err as Error).message}`, enable: 'see the error above' } };
    }
  }

  private async createAndProbe(id: string): Promise<EngineStatus> {
    const variant = this.factories.has(id) ? null : parseVariantId(id);
    if (variant !== null) return this.createVariant(id, variant.engine, variant.values);
    const factory = this.factories.get(id);
    if (!factory) {
      return { id, engine: null, availability: { available: false, reason: 'not registered', enable: `known engines: ${this.ids().join(', ')}` } };
    }
    // Checked before the probe: in an offline pack a missing package would otherwise read as "npm install …".
    const leftOut = engineLeftOutOfPack(id);
    if (leftOut) return { id, engine: null, availability: { available: false, ...leftOut } };
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

/**
 * An options variant of `base` under `id`: the engine object itself (its
 * methods keep their `this`), with every open handed `values`.
 */
export function variantEngine(base: Engine, id: string, values: EngineOptionValues): Engine {
  const variant = Object.create(base) as { -readonly [K in keyof Engine]: Engine[K] };
  Object.defineProperty(variant, 'id', { value: id, enumerable: true });
  variant.open = (path, options) => base.open(path, { ...options, engineOptions: values });
  if (base.openGenerator) variant.openGenerator = (path, options) => (base.openGenerator as NonNullable<Engine['openGenerator']>).call(base, path, { ...options, engineOptions: values });
  if (base.openTrainer) variant.openTrainer = (path, options) => (base.openTrainer as NonNullable<Engine['openTrainer']>).call(base, path, { ...options, engineOptions: values });
  return variant;
}

/** "reason (how to enable)" for an unavailable engine. */
export function unavailableText(s: EngineStatus): string {
  return s.availability.available ? 'available' : `unavailable: ${s.availability.reason} (${s.availability.enable})`;
}
