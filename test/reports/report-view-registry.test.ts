/**
 * Issue 47: the views of every one-screen report are registered, each
 * command in a registry of its own (reports/report-view-registry.ts):
 * --details prints them in registration order (`after` places one), a view
 * that is part of another is left out of --details, a name is one or more
 * lowercase words, registered once, and `show --view` with an unknown name
 * is a user error (exit 2) naming every valid one. load, generate and train
 * register a view for each table their reports had before they fit one screen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../src/core/errors.js';
import { chooseReport, ReportViewRegistry } from '../../reports/report-view-registry.js';
import { LOAD_VIEWS } from '../../src/scenarios/load/load-report.js';
import { GENERATE_VIEWS } from '../../src/scenarios/generate/generation-report.js';
import { TRAIN_VIEWS } from '../../src/scenarios/train/training-report.js';
import { viewNames } from '../../src/scenarios/classify/terminal-report.js';

const context = { run: { id: 'r' }, width: 80, sectionWidth: 60, color: false };

test('views print in registration order, `after` places one, a part is left out of --details, and names are checked', () => {
  const views = new ReportViewRegistry<{ id: string }>('demo');
  views.register({ name: 'speed', about: 'speed', render: () => ['SPEED'] });
  views.register({ name: 'legends', about: 'legends', render: () => ['LEGENDS'] });
  views.register({ name: 'cold-start', about: 'cold start', render: () => [] }, 'speed');
  views.register({ name: 'noise', about: 'noise', partOf: 'speed', render: () => ['NOISE'] });
  assert.deepEqual(views.names(), ['speed', 'cold-start', 'legends', 'noise']);
  assert.deepEqual(views.detailViews().map((v) => v.name), ['speed', 'cold-start', 'legends']);
  assert.throws(() => views.register({ name: 'speed', about: 'again', render: () => [] }), /report view "speed" of demo is registered twice/u);
  assert.throws(() => views.register({ name: 'Cold_Start', about: 'bad', render: () => [] }), /must be lowercase words joined by '-'/u);

  assert.deepEqual(views.renderOne('noise', context), ['NOISE']);
  assert.deepEqual(views.renderOne('cold-start', context), ['This run has nothing for the cold-start view (cold start).']);
  assert.throws(
    () => views.renderOne('nope', context),
    (err: unknown) => err instanceof UserError && err.exitCode === 2 && err.message === '--view must be one of summary, all, speed, cold-start, legends, noise, got "nope"' && /e\.g\. --view speed/u.test(err.fix ?? ''),
  );
});

test('chooseReport: no --view is the one screen (every table with --details), all is --details, summary the one screen, a name one view', () => {
  const render = { screen: (details: boolean) => (details ? 'every table' : 'one screen'), one: (name: string) => `view ${name}` };
  assert.equal(chooseReport(undefined, false, render), 'one screen');
  assert.equal(chooseReport(undefined, true, render), 'every table');
  assert.equal(chooseReport('all', false, render), 'every table');
  assert.equal(chooseReport('summary', true, render), 'one screen');
  assert.equal(chooseReport('peak', false, render), 'view peak');
});

test('load, generate and train register a view per table their reports printed, apart from run\'s', () => {
  assert.deepEqual(LOAD_VIEWS.names(), ['environment', 'method', 'rates', 'time-per-request', 'peak', 'verdicts', 'reasons']);
  assert.deepEqual(GENERATE_VIEWS.names(), ['environment', 'method', 'ttft', 'tpot', 'throughput', 'noise', 'reasons']);
  assert.deepEqual(TRAIN_VIEWS.names(), ['environment', 'method', 'speed', 'memory', 'loss', 'noise', 'reasons']);
  assert.ok(viewNames().includes('cold-start') && !viewNames().includes('time-per-request'), "run's views are run's alone");
});
