/**
 * Child process of `probeInChild` (native-library.ts): imports a tfjs-node
 * package and prints one JSON line saying whether it registered the
 * 'tensorflow' backend and which TensorFlow C library it runs on. Run in its
 * own process so that the prober's process keeps libtensorflow unloaded.
 */
const pkg = process.argv[2] ?? '@tensorflow/tfjs-node';

try {
  const tf = await import('@tensorflow/tfjs-core');
  tf.enableProdMode();
  await import(pkg);
  if (tf.findBackendFactory('tensorflow') == null) {
    console.log(JSON.stringify({ ok: false, error: `${pkg} loaded but registered no 'tensorflow' backend with @tensorflow/tfjs-core ${tf.version_core} (two tfjs-core copies?)` }));
  } else {
    await tf.setBackend('tensorflow');
    const backend = tf.backend() as { binding?: { TF_Version?: unknown } };
    const version = typeof backend.binding?.TF_Version === 'string' ? backend.binding.TF_Version : null;
    console.log(JSON.stringify({ ok: true, tensorflow: version }));
  }
} catch (err) {
  console.log(JSON.stringify({ ok: false, error: String(err instanceof Error ? err.message : err).split('\n')[0] }));
}
