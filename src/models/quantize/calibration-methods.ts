/**
 * The calibration methods of static quantization, apart from the calibrator:
 * option checks name them at every CLI start, and the calibrator imports the
 * ONNX file reader (onnx-proto, about 0.1 s of CPU to load).
 */
export type CalibrationMethod = 'minmax' | 'percentile';
export const CALIBRATION_METHODS: readonly CalibrationMethod[] = ['minmax', 'percentile'];
