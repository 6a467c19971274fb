import type { ArchitectureSpec } from './generated/arch-presets.js';
import { TINY_BERT_CONFIG } from './generated/bert-config.js';
import { DEFAULT_MODEL_NAME, ensureGeneratedModel } from './generated/generated-model.js';
import { TextClassification, type TextClassificationOptions } from './text-classification.js';
import { embeddedTexts } from '../../datasets/open-dataset.js';

/** Folder-name prefix of a generated architecture: the default's for `tiny`, else `arch-` plus the row name reduced to [A-Za-z0-9._-]. */
export function architectureFolderName(spec: ArchitectureSpec): string {
  // The tiny preset is the embedded default: share its cached folder.
  if (spec.config === TINY_BERT_CONFIG && !spec.padVocabulary) return DEFAULT_MODEL_NAME;
  const slug = spec.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60);
  return `arch-${slug || 'config'}`;
}

/**
 * The folder of a "what if" architecture: a random-init classifier of that
 * shape, generated (once, then cached) exactly like the embedded default,
 * with the vocabulary fitted to the embedded dataset.
 */
export async function ensureArchitectureFolder(spec: ArchitectureSpec, options: { cacheDir?: string } = {}): Promise<string> {
  return ensureGeneratedModel(spec.config, {
    texts: await embeddedTexts(),
    name: architectureFolderName(spec),
    padVocabulary: spec.padVocabulary,
    ...options,
  });
}

/** A runnable model of an architecture spec, named after the spec. */
export async function architectureClassifier(
  spec: ArchitectureSpec,
  options: { cacheDir?: string } & Omit<TextClassificationOptions, 'name'> = {},
): Promise<TextClassification> {
  const { cacheDir, ...rest } = options;
  const dir = await ensureArchitectureFolder(spec, cacheDir ? { cacheDir } : {});
  return new TextClassification(dir, { ...rest, name: spec.name }).init();
}
