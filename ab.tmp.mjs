import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
const f = '.cache/bench-datasets/hyparquet-writer-snappy-1000000.parquet';
async function raw(c) { const file = await asyncBufferFromFile(f); const md = await parquetMetadataAsync(file); let n=0, s=0; for (const g of md.row_groups) { const e = s+Number(g.num_rows); await parquetRead({file, metadata: md, rowStart: s, rowEnd: e, rowFormat:'object', compressors: c, onComplete(r){ n+=r.length; }}); s=e; } return n; }
for (let i=0;i<3;i++) for (const [name,c] of [['builtin',undefined],['wasm',compressors]]) { const t=performance.now(); await raw(c); console.log(name, ((performance.now()-t)/1000).toFixed(2)); }
