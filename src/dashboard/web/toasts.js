// Notices at the bottom right. They stack, newest last, so a new one never
// covers an older one; a notice lasts five seconds, but an error stays until
// dismissed with its × and says its fix (a re-run refused for a model
// outside --root says to restart `inferbench serve` with --allow <folder>).
// `doc` and `later` are parameters so node tests drive it with stand-ins.

/** The text of a refused request: the error, then its fix. */
export function errorText(data) {
  return data.fix ? `${data.error} — ${data.fix}` : String(data.error);
}

/** Shows `text`; `kind` 'error' stays until dismissed. Returns the notice's element. */
export function showToast(text, kind = 'info', doc = document, later = setTimeout) {
  let stack = doc.getElementById('toasts');
  if (!stack) {
    stack = doc.createElement('div');
    stack.id = 'toasts';
    stack.className = 'toasts';
    doc.body.append(stack);
  }
  const el = doc.createElement('div');
  el.className = `toast ${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const words = doc.createElement('span');
  words.textContent = text;
  el.append(words);
  if (kind === 'error') {
    const close = doc.createElement('button');
    close.type = 'button';
    close.className = 'toast-close';
    close.textContent = '×';
    close.setAttribute('aria-label', 'Dismiss');
    close.addEventListener('click', () => el.remove());
    el.append(close);
  } else {
    later(() => el.remove(), 5000);
  }
  stack.append(el);
  return el;
}
