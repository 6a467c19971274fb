#!/usr/bin/env node
import { UserError } from '../core/errors.js';
import { fileSystemError, isFileSystemError, syscallVerb } from '../core/fs-errors.js';
import { dispatch } from './dispatch.js';

/**
 * A reader that stops early (`inferbench show 2 | head -1`) closes the pipe;
 * the next write fails with EPIPE. Like git and ls, the CLI then exits
 * quietly with 0: the reader got what it asked for. Anything already
 * written to files stays; only the rest of the printout is dropped.
 */
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (caught: unknown) => {
    // A file-system error on a user's path that no command mapped itself is still the user's to fix (rc 2, no stack).
    const err = caught instanceof UserError || !isFileSystemError(caught) || !(caught as { path?: unknown }).path ? caught : fileSystemError(caught, syscallVerb(caught));
    if (err instanceof UserError) {
      process.stderr.write(`inferbench: error: ${err.message}\n${err.fix ? `  fix: ${err.fix}\n` : ''}`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`inferbench: internal error (please report it):\n${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
