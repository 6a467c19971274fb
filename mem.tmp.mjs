import { openDataset } from './dist/datasets/open-dataset.js';
const f = '.cache/bench-datasets/hyparquet-writer-snappy-1000000.parquet';
globalThis.gc?.();
const b = process.memoryUsage(); const max = {...b}; let n = 0;
for await (const r of await openDataset(f)) { if ((++n & 4095) === 0) { const m = process.memoryUsage(); for (const k in m) if (m[k] > max[k]) max[k] = m[k]; } }
for (const k in b) console.log(k.padEnd(14), (b[k]/1048576).toFixed(1), '->', (max[k]/1048576).toFixed(1));
