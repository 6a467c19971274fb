/** The recorded instrument traces of `run --profile` (test/data/profile/), read for the tests that pin their arithmetic. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import type { ProfileCapture } from '../../src/core/op-profile.js';

/** test/data/profile/<name> parsed: ORT's trace arrays (ort-node-bert.json, ort-web-bert.json), or a recorded capture. */
export function recordedTrace(name: string): unknown {
  return JSON.parse(readFileSync(join(packageRoot(), 'test', 'data', 'profile', name), 'utf8')) as unknown;
}

/** A recorded capture of the tfjs instruments (tfjs-translator-bert.json, tf-profile-bert.json), two calls each. */
export function recordedCapture(name: string): ProfileCapture {
  return recordedTrace(name) as ProfileCapture;
}
