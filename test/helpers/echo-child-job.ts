/**
 * A child job kind defined only by a test ('echo-child'): it upper-cases
 * each word of its payload and answers with the process it ran in, so a
 * test can prove that a scenario the child entry does not build in still
 * runs in a fresh process through the same isolated launcher, the child
 * importing this module because the launch names it (`Launch.module`).
 */
import { registerChildJob, type Launch } from '../../src/core/launch-jobs.js';

export const ECHO_KIND = 'echo-child';

export interface EchoPayload {
  readonly words: readonly string[];
  /** A word the child fails on, to prove the failure comes back as that key's failed result. */
  readonly crashOn: string | null;
}

export interface EchoResult {
  readonly word: string;
  readonly echoed: string | null;
  readonly pid: number;
  readonly reason?: string;
}

registerChildJob<EchoPayload, string, EchoResult>(ECHO_KIND, async (payload, io) => {
  for (const word of payload.words) {
    io.start(word);
    if (word === payload.crashOn) throw new Error(`echo-child was told to fail on '${word}'`);
    await io.result({ word, echoed: word.toUpperCase(), pid: process.pid });
  }
});

/** The launch of one echo group: the kind, its payload, and this module, which the child imports to know the kind. */
export function echoLaunch(payload: EchoPayload, module: string | null = import.meta.url): Launch<string, EchoResult> {
  return {
    kind: ECHO_KIND,
    ...(module !== null ? { module } : {}),
    payload,
    keys: payload.words,
    keyId: (word) => word,
    resultId: (result) => result.word,
    failed: (word, reason) => ({ word, echoed: null, pid: 0, reason }),
  };
}
