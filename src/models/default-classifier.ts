import { TINY_BERT_CONFIG } from './generated/bert-config.js';
import { ensureGeneratedModel } from './generated/generated-model.js';
import { TextClassification } from './text-classification.js';
import { embeddedTexts } from '../../datasets/open-dataset.js';

/**
 * The embedded default model: a tiny BERT classifier generated on first use
 * from TINY_BERT_CONFIG, with a WordPiece vocabulary fitted to the embedded
 * dataset, cached under the inferbench cache folder.
 */
export async function defaultClassifier(options: { cacheDir?: string } = {}): Promise<TextClassification> {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: await embeddedTexts(), ...options });
  return new TextClassification(dir, { name: 'tiny-bert (embedded default)' }).init();
}
