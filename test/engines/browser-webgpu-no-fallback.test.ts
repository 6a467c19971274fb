import { test } from 'node:test';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { createBrowserEngine } from '../../engines/browser/browser-engine.js';
import { BROWSER_ENGINE_SPECS } from '../../engines/browser/browser-specs.js';
import type { PageHost } from '../../engines/browser/page-host.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';
import type { PageCapabilities, PageOpenResult } from '../../engines/browser/page/protocol.js';

const CAPS: PageCapabilities = {
  userAgent: 'test',
  crossOriginIsolated: true,
  hardwareConcurrency: 2,
  simd: true,
  webglRenderer: 'SwiftShader',
  webgpuAdapter: 'google / swiftshader / fallback adapter',
};

const LOADED: PageOpenResult = { backend: 'webgpu', threads: null, precision: 'fp32', versions: {}, notes: [], runtimeInitMs: 1, sessionBuildMs: 1, heap: null };

/** A page that opens fine and printed `consoleText`: no browser needed to check what the engine makes of it. */
function fakeHost(consoleText: readonly string[]): PageHost & { disposed: boolean } {
  const host = {
    origin: 'http://127.0.0.1:1',
    browserVersion: 'Chromium 156.0.0.0',
    pageLoadMs: 1,
    disposed: false,
    serveFile: () => 'http://127.0.0.1:1/model/0/model.onnx',
    serveFolder: () => ({ root: 'http://127.0.0.1:1/files/', name: '0' }),
    consoleLines: (pattern: RegExp) => consoleText.filter((t) => pattern.test(t)),
    call: (async (method: string) => {
      if (method === 'capabilities') return CAPS;
      if (method === 'open') return LOADED;
      if (method === 'dispose') host.disposed = true;
      return undefined;
    }) as PageHost['call'],
  };
  return host;
}

// A Hugging Face model folder: transformers.js opens folders, not bare files.
const MODEL = join(HF_FIXTURES_DIR, 'bert', 'onnx', 'model.onnx');

for (const id of ['browser-onnx-webgpu', 'browser-transformers-js-webgpu']) {
  test(`${id} whose WebGPU execution provider took no node is an error, never a quiet CPU run`, async () => {
    const spec = BROWSER_ENGINE_SPECS.find((s) => s.id === id);
    assert.ok(spec);
    const engine = createBrowserEngine(spec);
    const host = fakeHost(['[V:onnxruntime:, session_state.cc:1383 VerifyEachNodeIsAssignedToAnEp]  Node(s) placed on [CPUExecutionProvider]. Number of nodes: 79']);
    await assert.rejects(engine.openIn(host, MODEL, { threads: null, precision: 'fp32' }), /WebGPU execution provider took no node \(CPUExecutionProvider 79\)/);
    assert.equal(host.disposed, true, 'the page session is freed');

    const placed = fakeHost([
      ' Node(s) placed on [CPUExecutionProvider]. Number of nodes: 6',
      ' Node(s) placed on [WebGpuExecutionProvider]. Number of nodes: 73',
    ]);
    const session = await engine.openIn(placed, MODEL, { threads: null, precision: 'fp32' });
    assert.ok(session.describe().notes?.some((n) => /WebGpuExecutionProvider 73 nodes/.test(n)));
  });
}
