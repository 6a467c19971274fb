#!/usr/bin/env python3
"""Writes quantized copies of Hugging Face fixtures for the tfjs quantized-op tests.

Dev-only (see tools/README.md): the product and its tests never run Python.
From the committed fp32 fixtures (test/data/hf/<arch>/onnx/model.onnx,
feeds in their reference.json) it writes, with onnxruntime.quantization:

    test/data/quant/<arch>-dynamic/model.onnx   quantize_dynamic, uint8 weights
                                                    (DynamicQuantizeLinear → MatMulInteger, what
                                                    transformers.js ships as model_quantized.onnx)
    test/data/quant/<arch>-qdq/model.onnx       quantize_static, QDQ format, per-channel int8
                                                    weights, activations calibrated (MinMax) on the
                                                    fixture's own feeds

The tests read the feeds from the original fixture's reference.json and take
onnxruntime-node's outputs on the same quantized file as the reference, so no
outputs are stored here.

Usage: /work/venv/bin/python tools/make-qdq-fixture.py [--out test/data/quant] [arch ...]
Default archs: bert (dynamic and QDQ) and gpt2 (dynamic: Gemm projections, tied weights).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnx.version_converter
import onnxruntime as ort
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_dynamic, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

ROOT = Path(__file__).resolve().parent.parent
HF = ROOT / "test" / "fixtures" / "hf"

# (arch, kind) pairs written by default.
DEFAULT = [("bert", "dynamic"), ("bert", "qdq"), ("gpt2", "dynamic")]


def feeds(arch: str) -> dict[str, np.ndarray]:
    ref = json.loads((HF / arch / "reference.json").read_text())
    return {name: np.array(t["data"], dtype=t["dtype"]).reshape(t["dims"]) for name, t in ref["inputs"].items()}


class FixtureFeeds(CalibrationDataReader):
    """The fixture's one batch of feeds, as the MinMax calibrator reads them."""

    def __init__(self, arch: str) -> None:
        self.batches = iter([feeds(arch)])

    def get_next(self):  # noqa: ANN201 - onnxruntime's interface
        return next(self.batches, None)


def write(arch: str, kind: str, out_root: Path) -> Path:
    src = HF / arch / "onnx" / "model.onnx"
    out = out_root / f"{arch}-{kind}" / "model.onnx"
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        model = onnx.load(str(src))
        if kind == "qdq" and model.opset_import[0].version < 13:
            # Per-channel DequantizeLinear (its axis attribute) needs opset 13.
            model = onnx.version_converter.convert_version(model, 13)
        onnx.save(model, str(Path(tmp) / "src.onnx"))
        quant_pre_process(str(Path(tmp) / "src.onnx"), str(pre), skip_symbolic_shape=True)
        if kind == "dynamic":
            quantize_dynamic(str(pre), str(out), weight_type=QuantType.QUInt8)
        else:
            quantize_static(
                str(pre),
                str(out),
                FixtureFeeds(arch),
                quant_format=QuantFormat.QDQ,
                per_channel=True,
                activation_type=QuantType.QUInt8,
                weight_type=QuantType.QInt8,
            )
    model = onnx.load(str(out))
    onnx.checker.check_model(model)
    ops: dict[str, int] = {}
    for n in model.graph.node:
        key = f"{n.domain}.{n.op_type}" if n.domain else n.op_type
        ops[key] = ops.get(key, 0) + 1
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    session.run(None, feeds(arch))
    quantized = {k: v for k, v in sorted(ops.items()) if "quant" in k.lower() or "Integer" in k or "NBits" in k}
    print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KiB, {quantized}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "test" / "fixtures" / "quant")
    parser.add_argument("targets", nargs="*", help="arch-kind pairs such as bert-qdq (default: %(default)s)")
    args = parser.parse_args()
    targets = [tuple(t.rsplit("-", 1)) for t in args.targets] or DEFAULT
    for arch, kind in targets:
        if kind not in ("dynamic", "qdq"):
            print(f"unknown kind {kind}: dynamic or qdq", file=sys.stderr)
            return 2
        write(arch, kind, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
