import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchmarkModel } from './benchmark-model.js';
import { UserError } from '../core/errors.js';
import { TextClassification } from './text-classification.js';
import { FeatureExtraction } from './feature-extraction.js';
import { FixedLengthModel } from './fixed-length-model.js';
import { defaultClassifier } from './default-classifier.js';
import type { ModelSpec } from './model-spec.js';

/** Re-creates the model a spec names, in whichever process asks. */
export async function modelFromSpec(spec: ModelSpec): Promise<BenchmarkModel> {
  switch (spec.kind) {
    case 'text-classification': {
      const { dir, kind: _kind, task, ...options } = spec;
      return task === 'feature-extraction' ? new FeatureExtraction(dir, options).init() : new TextClassification(dir, options).init();
    }
    case 'fixed-length':
      return new FixedLengthModel(await modelFromSpec(spec.base), spec.sequenceLength, spec.vocabSize, spec.maxLength).init();
    case 'default-classifier':
      return defaultClassifier();
    case 'module': {
      const path = isAbsolute(spec.path) ? spec.path : resolve(spec.path);
      const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
      const exported = mod[spec.exportName];
      if (typeof exported !== 'function') {
        throw new UserError(`${path} has no export "${spec.exportName}"`, 'export the BenchmarkModel subclass or factory under that name');
      }
      const ctor = exported as new (...args: unknown[]) => unknown;
      const made = exported.prototype instanceof BenchmarkModel ? new ctor(...(spec.args ?? [])) : await (exported as (...a: unknown[]) => unknown)(...(spec.args ?? []));
      if (!(made instanceof BenchmarkModel)) throw new UserError(`${spec.exportName} in ${path} did not give a BenchmarkModel`, 'export a subclass of BenchmarkModel or a function returning one');
      const withInit = made as BenchmarkModel & { init?: () => Promise<unknown> };
      if (typeof withInit.init === 'function') await withInit.init();
      return made;
    }
  }
}
