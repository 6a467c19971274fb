/**
 * Renders a vega-lite spec to PNG without a browser or node-canvas: vega
 * draws SVG headlessly and resvg (a native Rust rasteriser) turns it into
 * pixels. vega, vega-lite and resvg are imported on first use, so commands
 * that never draw a chart do not pay their load time.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CHART_FONT } from './chart-spec.js';
import { vegaTextWidth } from './chart-text-metrics.js';
import { importVendored } from '../src/core/package-info.js';
import { densityFor, wrapTitle } from './chart-width.js';

/** Raster settings; the spec itself decides layout and size in CSS pixels. */
export interface PngOptions {
  /** Pixel density; 2 gives crisp text on high-DPI screens and in slides. */
  readonly scale?: number;
}

/** vega and vega-lite's compile: from the build's one-module bundle where there is one (0.33 CPU-s to import against 0.60), else the packages. */
function loadVega(): Promise<{ readonly vega: typeof import('vega'); readonly compile: typeof import('vega-lite').compile }> {
  return importVendored('vega.mjs', async () => {
    const [{ compile }, vega] = await Promise.all([import('vega-lite'), import('vega')]);
    return { vega, compile };
  });
}

/** The SVG vega draws for a vega-lite spec; exported so tests can check text without decoding pixels. */
export async function renderSvg(vegaLiteSpec: TopLevelSpec): Promise<string> {
  const { compile, vega } = await loadVega();
  // vega's documented hook for canvas-less text measurement (untyped in vega-typings).
  (vega as unknown as { textMetrics: { width: typeof vegaTextWidth } }).textMetrics.width = vegaTextWidth;
  // Title lines wrapped to the plot's room: a long subtitle line once set the width of the whole picture (chart-width.ts).
  const { spec } = compile(wrapTitle(vegaLiteSpec));
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The width vega gave its SVG, in CSS pixels. */
function svgWidth(svg: string): number {
  const m = /<svg[^>]*\swidth="([\d.]+)"/u.exec(svg);
  return m ? Number(m[1]) : 0;
}

/** Renders a vega-lite spec to PNG bytes on a white background. */
export async function renderPng(vegaLiteSpec: TopLevelSpec, opts: PngOptions = {}): Promise<Uint8Array> {
  const [svg, { Resvg }] = await Promise.all([renderSvg(vegaLiteSpec), import('@resvg/resvg-js')]);
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: CHART_FONT },
    // No PNG wider than MAX_PNG_WIDTH: a chart wider than half of it is drawn at a lower density.
    fitTo: { mode: 'zoom', value: densityFor(svgWidth(svg), opts.scale ?? 2) },
    background: 'white',
  });
  return resvg.render().asPng();
}
