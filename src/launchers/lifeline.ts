/**
 * Imported first by every child entry: watches the lifeline, a pipe the
 * parent holds open (stdio fd PARENT_LIFELINE_FD) and never writes. When the
 * parent dies, even by SIGKILL, the kernel closes its end and the child
 * reads EOF and exits at once, instead of measuring on for seconds with
 * nobody to read the results. The entries import the job (engines, ONNX
 * Runtime, the model) only after this watch is in place; the IPC
 * 'disconnect' event alone came only once those had loaded.
 */
import { Socket } from 'node:net';
import { PARENT_LIFELINE_FD } from './child-protocol.js';

const lifeline = new Socket({ fd: PARENT_LIFELINE_FD, readable: true, writable: false });
const parentGone = (): never => process.exit(130);
lifeline.on('end', parentGone);
lifeline.on('close', parentGone);
lifeline.on('error', parentGone);
lifeline.resume();
// The watch must not keep the child alive on its own once the job is done.
lifeline.unref();
