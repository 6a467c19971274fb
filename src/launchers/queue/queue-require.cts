/**
 * bullmq and ioredis, loaded with `require`, each when first asked for. Both
 * are CommonJS: imported as ES modules, Node first lexes their files for
 * named exports, which cost about 0.12 s of CPU in every worker and queue
 * coordinator (a fresh Node process on the 2-core VM, 2026-11-28: 0.34 s
 * imported, 0.22 s required). A Redis probe asks for ioredis alone and does
 * not load bullmq.
 */
const queuePackages = {
  get bullmq(): typeof import('bullmq') {
    return require('bullmq') as typeof import('bullmq');
  },
  get ioredis(): typeof import('ioredis') {
    return require('ioredis') as typeof import('ioredis');
  },
};

export = queuePackages;
