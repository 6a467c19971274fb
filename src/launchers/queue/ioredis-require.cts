/** ioredis, loaded with `require` for the reason bullmq-require.cts gives. */
const ioredis = require('ioredis') as typeof import('ioredis');

export = ioredis;
