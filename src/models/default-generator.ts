import { TINY_GPT2_CONFIG } from './generated/gpt2-config.js';
import { ensureGeneratedDecoder } from './generated/generated-decoder.js';
import { TextGeneration } from './text-generation.js';
import { embeddedTexts } from '../../datasets/open-dataset.js';

/**
 * The embedded default generation model: a tiny GPT-2 generated on first use
 * from TINY_GPT2_CONFIG, with a byte-level BPE tokenizer trained on the
 * embedded dataset, cached under the inferbench cache folder.
 */
export async function defaultGenerator(options: { cacheDir?: string } = {}): Promise<TextGeneration> {
  const dir = await ensureGeneratedDecoder(TINY_GPT2_CONFIG, { texts: await embeddedTexts(), ...options });
  return new TextGeneration(dir, { name: 'tiny-gpt2 (embedded default)' }).init();
}
