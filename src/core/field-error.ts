import { UserError } from './errors.js';

/**
 * A UserError about one input field, so the API can answer 400 with the
 * field's name and a form can highlight it. Field names are the JSON
 * names of the run request (`batchSizes`, `threads`, `stop.maxTimeMs`…),
 * which mirror the CLI flags (`--batch-sizes`, `--threads`, `--max-time`).
 */
export class FieldError extends UserError {
  constructor(
    readonly field: string,
    message: string,
    fix?: string,
  ) {
    super(message, fix);
  }
}
