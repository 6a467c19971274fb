#!/usr/bin/env python3
"""Quantizes each Hugging Face fixture with onnxruntime's own quantize_dynamic, as a reference for inferbench's q8.

Dev-only (see tools/README.md): the product and its tests never run Python. For each
test/data/hf/<arch>/onnx/model.onnx it runs

    onnxruntime.quantization.quantize_dynamic(model.onnx, <tmp>, per_channel=True,
                                              reduce_range=False, weight_type=QuantType.QUInt8)

(the settings inferbench's q8 writes: per-channel uint8 weights, optimum's AVX2 dynamic
configuration; transformers.js's own q8 script picks per-tensor int8 weights instead), runs
the result with onnxruntime on the fixture's reference feeds, and writes a small
test/data/hf/<arch>/quantize-reference.json:

    settings, versions,
    sizeBytes                 the quantized file as quantize_dynamic saved it,
    valueInfoBytes            of which the value_info entries ONNX shape inference adds (type
                              and shape hints of intermediate values, not weights),
    output, dims, logits      the first output on the reference feeds (onnxruntime CPU).

The .onnx itself is not committed. test/models/quantize-reference-q8.test.ts holds inferbench's q8
file to it: size within 5% (value_info aside), logits within 1e-3, the same argmax.

Usage: /work/venv/bin/python tools/quantize-reference.py [arch ...]
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import QuantType, quantize_dynamic

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "test" / "fixtures" / "hf"
SETTINGS = {"per_channel": True, "reduce_range": False, "weight_type": "QUInt8"}


def feeds_of(reference: dict, session: ort.InferenceSession) -> dict:
    out = {}
    for inp in session.get_inputs():
        t = reference["inputs"][inp.name]
        dtype = np.int64 if t["dtype"] == "int64" else np.float32
        out[inp.name] = np.array(t["data"], dtype=dtype).reshape(t["dims"])
    return out


def one(arch: str) -> None:
    folder = FIXTURES / arch
    reference = json.loads((folder / "reference.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "model_quantized.onnx"
        quantize_dynamic(folder / "onnx" / "model.onnx", target, per_channel=True, reduce_range=False, weight_type=QuantType.QUInt8)
        size = target.stat().st_size
        model = onnx.load(target)
        whole = model.ByteSize()
        del model.graph.value_info[:]
        value_info = whole - model.ByteSize()
        session = ort.InferenceSession(str(target), providers=["CPUExecutionProvider"])
        output = session.get_outputs()[0].name
        logits = session.run([output], feeds_of(reference, session))[0]
    record = {
        "tool": "onnxruntime.quantization.quantize_dynamic",
        "settings": SETTINGS,
        "versions": {"onnxruntime": ort.__version__, "onnx": onnx.__version__},
        "sizeBytes": size,
        "valueInfoBytes": value_info,
        "output": output,
        "dims": list(logits.shape),
        "logits": [float(v) for v in logits.reshape(-1)],
    }
    (folder / "quantize-reference.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"{arch}: {size} bytes ({value_info} of value_info), {output} {list(logits.shape)}")


def main() -> None:
    archs = sys.argv[1:] or sorted(p.name for p in FIXTURES.iterdir() if (p / "onnx" / "model.onnx").exists())
    for arch in archs:
        one(arch)


if __name__ == "__main__":
    main()
