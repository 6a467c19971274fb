import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalOptions,
  expandEngineVariants,
  optionCombinations,
  optionTable,
  parseEngineOptions,
  parseVariantId,
  registerEngineOptions,
  variantId,
} from '../../src/core/engine-options.js';
import { UserError } from '../../src/core/errors.js';

registerEngineOptions('test-opt-engine', optionTable([
  { key: 'level', type: { kind: 'enum', values: ['off', 'on', 'max'] }, default: 'max', doc: 'd', applied: 'a', readBack: 'r' },
  { key: 'arena', type: { kind: 'boolean' }, default: 'true', doc: 'd', applied: 'a', readBack: 'r' },
  { key: 'n', type: { kind: 'integer', min: 1, max: 8 }, default: '1', doc: 'd', applied: 'a', readBack: 'r' },
]));

function userError(f: () => unknown): UserError {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof UserError, String(err));
    assert.equal(err.exitCode, 2);
    return err;
  }
  assert.fail('no error');
}

test('ENGINE:key=v1|v2;key2=w parses into values per key, repeats dropped', () => {
  assert.deepEqual(parseEngineOptions('test-opt-engine:level=off|on|off;arena=false'), { engine: 'test-opt-engine', values: { level: ['off', 'on'], arena: ['false'] } });
});

test('an unknown key names every key the engine takes', () => {
  const err = userError(() => parseEngineOptions('test-opt-engine:levle=off'));
  assert.match(err.message, /has no option "levle"/);
  assert.match(err.fix ?? '', /level, arena, n/);
});

test('a bad value names the allowed values and the default', () => {
  assert.match(userError(() => parseEngineOptions('test-opt-engine:level=fast')).fix ?? '', /off, on, max.*default max/);
  assert.match(userError(() => parseEngineOptions('test-opt-engine:arena=yes')).fix ?? '', /true or false/);
  assert.match(userError(() => parseEngineOptions('test-opt-engine:n=9')).fix ?? '', /1\.\.8/);
  assert.match(userError(() => parseEngineOptions('test-opt-engine:n=1.5')).fix ?? '', /integer/);
});

test('no engine, an engine without options, a key without a value and a key given twice are refused', () => {
  assert.match(userError(() => parseEngineOptions('level=off')).message, /names no engine/);
  assert.match(userError(() => parseEngineOptions('no-such-engine:level=off')).message, /takes no options/);
  assert.match(userError(() => parseEngineOptions('test-opt-engine:level')).message, /has no value/);
  assert.match(userError(() => parseEngineOptions('test-opt-engine:level=on;level=off')).message, /given twice/);
});

test('a prototype name is no option', () => {
  assert.match(userError(() => parseEngineOptions('test-opt-engine:constructor=1')).message, /has no option/);
});

test('combinations cover every value of every key; canonical form sorts keys', () => {
  const combos = optionCombinations({ level: ['off', 'on'], arena: ['true', 'false'] });
  assert.equal(combos.length, 4);
  assert.deepEqual(combos[0], { level: 'off', arena: 'true' });
  assert.equal(canonicalOptions({ level: 'off', arena: 'true' }), 'arena=true;level=off');
  assert.equal(canonicalOptions({}), '');
});

test('variant ids round-trip and a plain id is no variant', () => {
  const id = variantId('test-opt-engine', { level: 'off', n: '2' });
  assert.equal(id, 'test-opt-engine [level=off;n=2]');
  assert.deepEqual(parseVariantId(id), { engine: 'test-opt-engine', values: { level: 'off', n: '2' } });
  assert.equal(parseVariantId('onnx-cpu'), null);
  assert.equal(variantId('test-opt-engine', {}), 'test-opt-engine');
});

test('expanding engines replaces an engine given options by its variants, in place', () => {
  assert.deepEqual(expandEngineVariants(['a-engine', 'test-opt-engine'], ['test-opt-engine:level=off|on']), ['a-engine', 'test-opt-engine [level=off]', 'test-opt-engine [level=on]']);
  assert.match(userError(() => expandEngineVariants(['a-engine'], ['test-opt-engine:level=off'])).message, /not in --engines/);
  assert.match(userError(() => expandEngineVariants(['test-opt-engine'], ['test-opt-engine:level=off', 'test-opt-engine:n=2'])).message, /given twice/);
});
