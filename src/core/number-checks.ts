import { UserError } from './errors.js';

/**
 * Checks that `value` is a positive integer. `name` is how the user set it
 * (`--batch-sizes` on the CLI, `batchSizes` in code) so the message points
 * at the right place.
 */
export function requirePositiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new UserError(`${name} must be a positive integer, got ${JSON.stringify(value) ?? String(value)}`, `pass ${name} a whole number of at least 1`);
  }
  return value;
}
