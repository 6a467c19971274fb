// The Add-benchmark form's words for a refused request. The API names its
// fields as the API does (stop.maxTimeMs, milliseconds, "e.g. limit: 256"),
// which is right for a script and wrong under a form field labelled "Max
// time per cell (s)": here the field is named by its label, a time is in
// seconds, and a fix that repeats the error or shows API syntax is left out,
// so each error says its one thing once. Pure, so node tests read it.

/** The label without its unit or note: "Max time per cell (s)" → "Max time per cell". */
function labelName(label) {
  return label.replace(/\s*\([^)]*\)\s*$/, '').trim();
}

/** `-1000` ms as `-1 s`. */
function seconds(ms) {
  return `${Number(ms) / 1000} s`;
}

/**
 * The text to show under a field for the API's `{ field, error, fix }`;
 * `label` is the field's label on the form (null: the API's words, fix kept).
 */
export function formErrorText(data, label) {
  const error = String(data.error ?? '');
  if (!label || !data.field) return data.fix ? `${error} — ${data.fix}` : error;
  const name = labelName(label);
  const rest = error.startsWith(`${data.field} `) ? error.slice(data.field.length + 1) : null;
  if (rest === null) return data.fix && !/^e\.g\. /.test(data.fix) ? `${error} — ${data.fix}` : error;
  let says = rest
    .replace(/^must be a positive integer/, 'must be a whole number of at least 1')
    .replace(/^must be a number or null\b/, 'must be a number')
    .replace(/^must be a non-empty list of names, got \[\]$/, 'has none picked: pick at least one')
    .replace(/^must be a non-empty list of whole numbers \(null: engine default\)/, 'must be whole numbers')
    .replace(/^must be a non-empty list of /, 'must be ')
    .replace(/^has the wrong type \((.*)\)$/, 'must be a number, got $1');
  if (/Ms$/.test(data.field)) {
    // A time the form asks in seconds: its bound and the value given, in seconds.
    says = says.replace(/^must be a number ≥ (-?[\d.]+)(?:, got (-?[\d.]+))?/, (_, min, got) => `must be at least ${seconds(min)}${got === undefined ? '' : `, got ${seconds(got)}`}`);
  }
  let text = `${name} ${says}`;
  // A fix worth adding says something the error does not, in the form's words: not API syntax, not milliseconds, not the error again.
  const fix = String(data.fix ?? '').replace(new RegExp(`^pass ${data.field} `), 'use ');
  const repeats = fix.startsWith('use ') && (says.includes(fix.slice(4)) || rest.includes(fix.slice(4)));
  if (fix && !/^e\.g\. /.test(fix) && !/milliseconds|^send a number$/.test(fix) && !repeats) text += ` — ${fix}`;
  return text;
}
