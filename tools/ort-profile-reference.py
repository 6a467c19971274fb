"""Dev only (`npm run bench:profile`): Python onnxruntime's own profiler on one ONNX graph.

Usage: ort-profile-reference.py MODEL.onnx BATCH SEQUENCE THREADS RUNS
Runs the graph RUNS times untimed, then RUNS times with the trace kept (the
last RUNS `model_run` spans, as inferbench's profiled pass keeps them), on the
inputs bench-profile.ts builds by the same formula, with the session options
onnx-cpu uses (sequential, graph optimisation all, THREADS intra-op threads).
Prints JSON: {"opType": total microseconds over the kept runs, ...}.
"""
import json
import os
import sys
import tempfile

import numpy as np
import onnxruntime as ort


def main() -> None:
    model, batch, seq, threads, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.enable_profiling = True
    folder = tempfile.mkdtemp(prefix="inferbench-py-profile-")
    opts.profile_file_prefix = os.path.join(folder, "profile")
    session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    n = batch * seq
    feeds = {
        "input_ids": ((np.arange(n, dtype=np.int64) * 7919) % 1000 + 1000).reshape(batch, seq),
        "attention_mask": np.ones((batch, seq), dtype=np.int64),
        "token_type_ids": np.zeros((batch, seq), dtype=np.int64),
    }
    names = {i.name for i in session.get_inputs()}
    feeds = {k: v for k, v in feeds.items() if k in names}
    for _ in range(2 * runs):
        session.run(None, feeds)
    path = session.end_profiling()
    with open(path, encoding="utf-8") as f:
        events = json.load(f)
    os.remove(path)
    os.rmdir(folder)
    spans = sorted((e for e in events if e.get("cat") == "Session" and e.get("name") == "model_run"), key=lambda e: e["ts"])[-runs:]
    totals: dict = {}
    for e in events:
        if e.get("cat") != "Node" or not e.get("name", "").endswith("_kernel_time"):
            continue
        if not any(s["ts"] <= e["ts"] <= s["ts"] + s["dur"] for s in spans):
            continue
        op = e.get("args", {}).get("op_name", "unknown")
        totals[op] = totals.get(op, 0) + e["dur"]
    print(json.dumps({"onnxruntime": ort.__version__, "totals": totals}))


if __name__ == "__main__":
    main()
