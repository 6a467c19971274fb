/**
 * Entry point of an isolated cell process. Before anything heavy is
 * imported, it starts watching the lifeline: a pipe the parent holds open
 * (stdio fd PARENT_LIFELINE_FD) and never writes. When the parent dies,
 * even by SIGKILL, the kernel closes its end and the child reads EOF and
 * exits at once, instead of measuring on for seconds with nobody to read
 * the results. ES module imports run before a module's body, so the job
 * (engines, ONNX Runtime, the model) is imported only after the watch is
 * in place; the IPC 'disconnect' event alone came only once they loaded.
 */
import { Socket } from 'node:net';
import { PARENT_LIFELINE_FD } from './isolated-job.js';

const lifeline = new Socket({ fd: PARENT_LIFELINE_FD, readable: true, writable: false });
const parentGone = (): never => process.exit(130);
lifeline.on('end', parentGone);
lifeline.on('close', parentGone);
lifeline.on('error', parentGone);
lifeline.resume();
// The watch must not keep the child alive on its own once the job is done.
lifeline.unref();

await import('./cell-child-job.js');
