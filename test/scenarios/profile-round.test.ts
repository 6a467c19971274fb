import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measureContext, type PreparedData } from '../../src/scenarios/classify/open-group.js';
import type { RssSampler } from '../../src/scenarios/rss-sampler.js';

test('--profile: the last planned round always profiles, an earlier one only if it saw no whole pass (its cell runs no more); without it, none', () => {
  const data = { dataset: {}, columns: { text: 'text', label: null }, rowSet: async () => ({ rows: 0, sha256: '' }) } as unknown as PreparedData;
  const settings = { stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 1000, maxBatches: 10 }, warmupBatches: 0, parityRows: 0 };
  const ctx = (round: number, profileRound: number | null) =>
    measureContext(data, () => ({}), { ...settings, profileRound }, { sampler: {} as RssSampler, openMs: 0, signal: undefined, round, noiseBase: null });
  assert.equal(ctx(2, 2).profile, 'always');
  assert.equal(ctx(0, 2).profile, 'if-partial');
  assert.equal(ctx(1, null).profile, undefined);
});
