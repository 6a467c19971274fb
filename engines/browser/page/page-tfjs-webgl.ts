/** Benchmark page: tfjs on @tensorflow/tfjs-backend-webgl. The renderer and float precision are read back for every row. */
import { version_webgl } from '@tensorflow/tfjs-backend-webgl';
import * as tf from '@tensorflow/tfjs-core';
import { installTfjsPage } from './page-tfjs.js';

installTfjsPage({
  name: 'webgl',
  packageName: '@tensorflow/tfjs-backend-webgl',
  version: version_webgl,
  before(_request, caps) {
    if (caps.webglRenderer === null) throw new Error(`WebGL: ${caps.webglUnavailable ?? 'no WebGL2 context'}`);
    // tfjs-webgl otherwise runs small ops on the CPU backend without a word; every op stays on WebGL here.
    tf.env().set('WEBGL_CPU_FORWARD', false);
  },
  async after(caps) {
    const env = tf.env();
    const float32 = env.getBool('WEBGL_RENDER_FLOAT32_ENABLED');
    const f16 = env.getBool('WEBGL_FORCE_F16_TEXTURES');
    const precision = float32 && !f16 ? 'fp32' : 'fp16';
    return {
      threads: null,
      precision,
      notes: [
        `WebGL renderer: ${caps.webglRenderer}${/swiftshader/i.test(caps.webglRenderer ?? '') ? ' (SwiftShader: software rendering on the CPU, no GPU)' : ''}`,
        `WebGL ${env.getNumber('WEBGL_VERSION')} textures ${precision === 'fp32' ? 'float32' : 'float16'} (WEBGL_RENDER_FLOAT32_ENABLED=${float32}, WEBGL_FORCE_F16_TEXTURES=${f16}, WEBGL_PACK=${env.getBool('WEBGL_PACK')})`,
        'every op on WebGL (WEBGL_CPU_FORWARD off: no small op handed to the CPU)',
        'GPU backend: no thread count (the GPU, or SwiftShader on the CPU, runs the shaders)',
      ],
    };
  },
});
