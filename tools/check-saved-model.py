"""Loads SavedModels inferbench exported with Python TensorFlow and checks their outputs.

Dev-only: `test/e2e/models/tf-export-python-saved-model.test.ts` runs it when a Python with
TensorFlow is at hand (INFERBENCH_PYTHON, else the repo's .venv). Usage:

    check-saved-model.py CASE.json [CASE.json ...]

Each CASE.json holds {"dir": <SavedModel folder>, "inputs": {name: {dtype, dims,
data}}, "outputs": {name: {dims, data}}} (the outputs to match, e.g. onnx-cpu's).
For each case it calls tf.saved_model.load(dir).signatures["serving_default"] on
the inputs and prints one JSON line: {"dir", "maxAbsDiff": {output: float},
"signature": {"inputs": {name: dtype}, "outputs": [names]}}, or {"dir", "error"}.
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

DTYPES = {"int64": np.int64, "int32": np.int32, "float32": np.float32, "bool": np.bool_}


def check(case):
    loaded = tf.saved_model.load(case["dir"])
    fn = loaded.signatures["serving_default"]
    specs = fn.structured_input_signature[1]
    feeds = {}
    for name, t in case["inputs"].items():
        array = np.array(t["data"], dtype=DTYPES[t["dtype"]]).reshape(t["dims"])
        feeds[name] = tf.constant(array, dtype=specs[name].dtype)
    got = fn(**feeds)
    diffs = {}
    for name, want in case["outputs"].items():
        value = got[name].numpy()
        if list(value.shape) != list(want["dims"]):
            raise ValueError(f"output {name} has shape {list(value.shape)}, expected {want['dims']}")
        diffs[name] = float(np.max(np.abs(value.astype(np.float64).ravel() - np.array(want["data"], dtype=np.float64))))
    return {
        "dir": case["dir"],
        "maxAbsDiff": diffs,
        "signature": {"inputs": {k: v.dtype.name for k, v in specs.items()}, "outputs": sorted(fn.structured_outputs.keys())},
    }


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            case = json.load(f)
        try:
            print(json.dumps(check(case)), flush=True)
        except Exception as err:  # one failing case must not hide the others' results
            print(json.dumps({"dir": case.get("dir"), "error": f"{type(err).__name__}: {err}"}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
