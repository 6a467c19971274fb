/**
 * bullmq, loaded with `require`. It is CommonJS: imported as an ES module,
 * Node first lexes its files (and ioredis's) for named exports, which cost
 * about 0.12 s of CPU in every worker and queue coordinator (bullmq and
 * ioredis in a fresh Node process on the 2-core VM, 2026-11-28: 0.34 s
 * imported, 0.22 s required).
 */
const bullmq = require('bullmq') as typeof import('bullmq');

export = bullmq;
