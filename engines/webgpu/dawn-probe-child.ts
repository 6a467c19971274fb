/**
 * Child process of `probeDawnAdapter` (dawn-adapter.ts): checks that the
 * Vulkan loader opens, asks Dawn (the `webgpu` package's dawn.node) for its
 * default high-performance adapter, and prints one JSON line with what it
 * found. Run apart because a broken Vulkan driver can abort the process
 * that loads it, and because a live `navigator.gpu` keeps Node from exiting.
 *
 * argv[2]: the loader's file name (libvulkan.so.1; tests pass a missing one).
 */
const loader = process.argv[2] ?? 'libvulkan.so.1';

function print(result: object): never {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

try {
  // dlopen by bare name searches exactly where Dawn's own dlopen will (LD_LIBRARY_PATH, ld.so.cache).
  // The loader is no Node addon, so an opened file still throws "did not self-register"; only a missing one says "cannot open".
  process.dlopen({ exports: {} } as NodeJS.Module, loader);
} catch (err) {
  const message = String((err as Error).message);
  if (/cannot open shared object|no such file/i.test(message)) print({ ok: false, kind: 'loader', detail: message.split('\n')[0] });
}

try {
  const { create } = (await import('webgpu')) as unknown as { create(flags: string[]): { requestAdapter(o?: object): Promise<{ info: Record<string, unknown> } | null> } };
  const gpu = create([]);
  // The same request tfjs-backend-webgpu makes (powerPreference high-performance).
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (adapter === null) print({ ok: false, kind: 'no-adapter' });
  const info = adapter.info;
  print({
    ok: true,
    info: { vendor: info['vendor'], architecture: info['architecture'], device: info['device'], description: info['description'], isFallbackAdapter: info['isFallbackAdapter'] },
  });
} catch (err) {
  const missing = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
  print({ ok: false, kind: missing ? 'package' : 'error', detail: String((err as Error).message ?? err).split('\n')[0] });
}
