/**
 * The rows a q8-static variant is calibrated on: the first N of the run's
 * dataset. The run then measures from row N on, so accuracy is never counted
 * on rows the quantizer saw; a dataset with N rows or fewer would leave
 * nothing to measure, which is refused before any model is loaded.
 */
import { UserError } from '../core/errors.js';
import { largestAllowed } from '../core/option-ranges.js';
import type { CalibrationMethod } from '../models/quantize/calibration-methods.js';
import type { Dataset } from '../../datasets/dataset.js';
import { textOf, type ResolvedColumns } from '../../datasets/columns.js';

/** What static quantization is calibrated on, as the run records it. */
export interface CalibrationPlan {
  readonly rows: number;
  readonly method: CalibrationMethod;
  /** The calibration rows' texts, in order. */
  readonly texts: readonly string[];
}

/** Reads the first `rows` texts; refuses a dataset that has no row left after them. */
export async function checkCalibrationRows(dataset: Dataset, columns: ResolvedColumns, rows: number, method: CalibrationMethod, flag = 'calibrationRows'): Promise<CalibrationPlan> {
  const texts: string[] = [];
  let seen = 0;
  for await (const row of dataset.take(rows + 1)) {
    if (seen++ < rows) texts.push(textOf(row, columns.text));
  }
  if (seen <= rows) {
    // The suggestion passes this same check: below the dataset's rows, and inside the option's range.
    const most = largestAllowed('calibrationRows', seen - 1);
    throw new UserError(
      `${flag} ${rows} is not below the ${seen} row${seen === 1 ? '' : 's'} of dataset ${dataset.name}: q8-static calibrates on the first ${rows} rows and measures the rows after them, so none would be left`,
      most !== null
        ? `lower ${flag} to ${most} or fewer (the default is 128), or use a larger dataset`
        : `use a dataset with at least 2 rows (q8-static calibrates on one and measures the next), or leave out q8-static`,
    );
  }
  return { rows, method, texts };
}
