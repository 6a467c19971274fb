/**
 * A refused re-run (its model outside --root) says how to allow the path,
 * and stays until dismissed: the toast showed the error alone, without the
 * server's fix (restart `inferbench serve` with --allow <folder>), and went
 * after five seconds under the next toast, drawn over it at the same spot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldError } from '../../src/core/field-error.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** Just enough of a DOM for the toasts: elements with children, attributes and click listeners. */
class FakeElement {
  id = '';
  className = '';
  type = '';
  textContent = '';
  children: FakeElement[] = [];
  parent: FakeElement | null = null;
  readonly attributes = new Map<string, string>();
  readonly clicks: (() => void)[] = [];
  append(child: FakeElement): void {
    child.parent = this;
    this.children.push(child);
  }
  remove(): void {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
    this.parent = null;
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  addEventListener(_: string, fn: () => void): void {
    this.clicks.push(fn);
  }
}

test('a refused re-run toast says `serve --allow <folder>`, stacks above later toasts and stays until dismissed', async () => {
  const web = new URL('../../../src/dashboard/web/toasts.js', import.meta.url).href;
  type Toasts = { errorText: (d: unknown) => string; showToast: (text: string, kind: string, doc: unknown, later: (fn: () => void, ms: number) => void) => FakeElement };
  const { errorText, showToast } = (await import(web)) as Toasts;
  const guard = new PathGuard(testOutputDir('refused-rerun-toast'));
  let refusal: FieldError | null = null;
  try {
    guard.checkModel('model', '/etc');
  } catch (err) {
    if (err instanceof FieldError) refusal = err;
    else throw err;
  }
  assert.ok(refusal, 'a model outside --root is refused');
  const text = errorText({ error: refusal.message, fix: refusal.fix });
  assert.match(text, /serve` with --allow <folder>/);

  const body = new FakeElement();
  const all: FakeElement[] = [];
  const doc = {
    body,
    createElement: () => {
      const el = new FakeElement();
      all.push(el);
      return el;
    },
    getElementById: (id: string) => all.find((e) => e.id === id && e.parent !== null) ?? null,
  };
  const timers: (() => void)[] = [];
  const later = (fn: () => void) => void timers.push(fn);
  const error = showToast(text, 'error', doc, later);
  const next = showToast('Benchmark #3 removed', 'info', doc, later);
  const stack = body.children[0];
  assert.ok(stack !== undefined && stack.children.length === 2, 'both toasts are in one stack');
  assert.equal(error.parent, stack);
  assert.equal(next.parent, stack, 'the next toast stacks beside the error, not over it');
  for (const fire of timers) fire();
  assert.equal(error.parent, stack, 'the error stays when the timers run');
  assert.equal(next.parent, null, 'a notice goes after its time');
  const close = error.children.find((c) => c.attributes.get('aria-label') === 'Dismiss');
  assert.ok(close, 'the error has a dismiss button');
  for (const fn of close.clicks) fn();
  assert.equal(error.parent, null, 'dismissed');
});
