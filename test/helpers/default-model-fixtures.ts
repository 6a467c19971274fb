/**
 * Shared inputs of the default-model tests: made-up reviews (the real dataset
 * module is separate) and a throwaway cache root, so no test ever touches the
 * user's ~/.cache.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

/** Thirty short made-up movie reviews, half positive, with accents and punctuation to exercise normalization. */
export const REVIEW_TEXTS: readonly string[] = [
  'A wonderful film with a heartfelt story and superb acting.',
  'I loved every minute of it; the soundtrack is brilliant!',
  'The plot was dull and the dialogue felt painfully forced.',
  'Terrible pacing, wooden performances, and a pointless ending.',
  'An absolute delight from start to finish.',
  'The director clearly had no idea what the story was about.',
  'Beautifully shot, cleverly written, and genuinely funny.',
  'I walked out halfway through. What a waste of money.',
  'The cast has great chemistry and the jokes land every time.',
  'Boring, predictable, and far too long for such a thin plot.',
  'A touching, naïve little café romance that won me over.',
  'Visually stunning but emotionally empty.',
  'My kids begged to watch it again the next day!',
  'The sequel ruins everything the original did well.',
  'Smart, tense, and surprisingly moving — highly recommended.',
  'Cheap effects and a script that makes no sense at all.',
  'One of the best thrillers I have seen in years.',
  'The lead actor mumbles through every single scene.',
  'Charming characters and a clever twist at the end.',
  'I fell asleep twice; the second half drags on forever.',
  'A bold, original vision executed with real confidence.',
  'Loud, messy, and instantly forgettable.',
  'The music alone is worth the price of the ticket.',
  'Every scene feels like a commercial for something else.',
  'Funny, warm, and full of small surprises.',
  'The worst movie of the year, without any doubt.',
  'Great performances lift a fairly simple story.',
  'Confusing editing made it impossible to follow.',
  'A crowd-pleaser that earns its happy ending.',
  'Not even the talented cast could save this mess.',
];

/**
 * A fresh temporary cache root, removed when the test file ends. Also set as
 * INFERBENCH_CACHE so code that falls back to defaultCacheRoot stays inside it.
 */
export async function tempCacheRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'inferbench-test-'));
  process.env['INFERBENCH_CACHE'] = root;
  after(() => rm(root, { recursive: true, force: true }));
  return root;
}
