/**
 * Reading a file a user or a job names, refusing anything that is not a
 * regular file before a byte is read. A FIFO named `model.onnx` blocked
 * `open()` forever (it waits for a writer), a device streams without end:
 * the file is opened without blocking, checked with fstat on that same
 * descriptor, and only then read.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { UserError } from './errors.js';

/** What a non-regular file is, in words. */
export function fileKind(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The UserError for `path` being something other than a regular file. */
export function notRegularFile(path: string, info: Stats): UserError {
  return new UserError(`${path} is ${fileKind(info)}, not a regular file; refused before reading it`, 'point inferbench at a regular file (copy the data into one)');
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Opens `path` for reading when it is a regular file (links followed); anything else is a UserError naming it. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, FLAGS);
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw notRegularFile(path, info);
  }
  return handle;
}

/** The bytes of a regular file (see openRegularFile). */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await openRegularFile(path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The text of a regular file, synchronously (config and tokenizer files read while a model folder is opened). */
export function readRegularFileSync(path: string, encoding: BufferEncoding): string {
  return readRegularBytesSync(path).toString(encoding);
}

/** The bytes of a regular file, synchronously (a model folder's files checked before loading). */
export function readRegularBytesSync(path: string): Buffer {
  const fd = openSync(path, FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw notRegularFile(path, info);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** sha256 (hex) of a regular file, streamed. */
export async function sha256OfFile(path: string): Promise<string> {
  const handle = await openRegularFile(path);
  const hash = createHash('sha256');
  for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
