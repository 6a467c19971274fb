import { startMockHub } from './dist/test/fixtures/mock-hub.js';
import { openDataset } from './dist/datasets/open-dataset.js';
const s='test/fixtures/datasets/pyarrow-snappy.parquet';
const hub = await startMockHub([{ id: 'a/b', splits: { default: { train: [s] } } },{ id: 'a/p', access:'private', splits: { default: { train: [s] } } },{ id: 'a/g', access:'gated', splits: { default: { train: [s] } } }]);
const env = (o={}) => ({ endpoint: hub.url, token: null, cacheDir: '/tmp/hubdbg', offline: false, ...o });
for (const [id, o] of [['a/b',{split:'x'}],['a/nope',{}],['a/p',{}],['a/p',{hub:env({token:'bad'})}],['a/g',{hub:env({token:hub.token})}],['a/b',{hub:env({offline:true}), config:'zz'}]]) {
  try { await openDataset(id, { hub: env(), ...o, fetch: {retry:{attempts:2,baseDelayMs:1}} }); console.log('ok'); } catch (e) { console.log(`- ${e.message}\n  fix: ${e.fix}`); }
}
await hub.close();
try { await openDataset('a/b', { hub: env({endpoint: 'http://127.0.0.1:9'}), fetch: {retry:{attempts:3,baseDelayMs:1}} }); } catch (e) { console.log(`- ${e.message}\n  fix: ${e.fix}`); }
