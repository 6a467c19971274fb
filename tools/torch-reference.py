"""PyTorch reference for a model inferbench generated (`--config bert-base`), on the same weights.

Dev-only, for GPU checks (docs/gpu.md): the GPU machine has PyTorch with CUDA but no
Node, so this gives the figure a user would compare inferbench's WebGPU rows with.
It is not part of the product and is never run by `npm test`.

    torch-reference.py MODEL_DIR [--batch-sizes 1,8,32] [--sequence-length 128]
                       [--iterations 50] [--warmup 10] [--device cuda]

The model runs as transformers builds it by default (its attention implementation
is read back and printed), in fp32 with PyTorch's default TF32 setting (printed).

MODEL_DIR is a generated model folder (config.json, onnx/model.onnx). Its ONNX
initializers carry Hugging Face's parameter names, so they load into
transformers' BertForSequenceClassification as they are; MatMul weights are
stored [in, out] and are transposed into torch.nn.Linear's [out, in].

Inputs have inferbench's `--sequence-lengths` shape: ids drawn (seed 0) from the
plain vocabulary, attention mask all ones, token types all zero. inferbench
draws its ids from each row's text hash instead, so the ids differ and the
shapes and work are the same (dense attention: the values do not change the
work).

Scope, as inferbench's engine time: inputs already on the device, from the
call until the logits are in host memory (`.cpu()`, which synchronises).
Estimator: per-batch wall time over `--iterations` calls after `--warmup`
untimed ones; p50, mean and min are printed, in ms, as one JSON line per batch
size. Before timing, the logits are checked against onnxruntime's CPU provider
on the same inputs (`maxAbsDiffVsOrtCpu`), which proves the weights loaded are
the model's.
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper
from transformers import BertConfig, BertForSequenceClassification

FIRST_PLAIN_ID = 5


def load_model(model_dir, device):
    config = BertConfig.from_pretrained(model_dir)
    model = BertForSequenceClassification(config).eval()
    graph = onnx.load(os.path.join(model_dir, "onnx", "model.onnx"))
    params = dict(model.named_parameters())
    state = {}
    for init in graph.graph.initializer:
        if init.name not in params:
            continue
        array = numpy_helper.to_array(init)
        target = params[init.name]
        if array.ndim == 2 and "embeddings" not in init.name:
            array = array.T  # MatMul's [in, out] into Linear's [out, in], square ones too
        if tuple(array.shape) != tuple(target.shape):
            raise SystemExit(f"{init.name}: ONNX shape {array.shape} does not fit torch's {tuple(target.shape)}")
        state[init.name] = torch.from_numpy(np.array(array, copy=True))
    missing = sorted(set(params) - set(state))
    if missing:
        raise SystemExit(f"parameters not in the ONNX file: {missing[:5]}")
    model.load_state_dict(state, strict=False)
    return model.to(device), os.path.join(model_dir, "onnx", "model.onnx"), config


def inputs_for(batch, length, vocab, generator):
    ids = torch.randint(FIRST_PLAIN_ID, vocab, (batch, length), generator=generator, dtype=torch.int64)
    return {
        "input_ids": ids,
        "attention_mask": torch.ones((batch, length), dtype=torch.int64),
        "token_type_ids": torch.zeros((batch, length), dtype=torch.int64),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("--batch-sizes", default="1,8,32")
    parser.add_argument("--sequence-length", type=int, default=128)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()

    device = torch.device(args.device)
    model, onnx_path, config = load_model(args.model_dir, device)
    ort_cpu = ort.InferenceSession(onnx_path, providers=["CPUExecutionProvider"])
    generator = torch.Generator().manual_seed(0)
    where = torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"
    header = {
        "device": where,
        "torch": torch.__version__,
        "precision": "fp32",
        "tf32Matmul": torch.backends.cuda.matmul.allow_tf32,
        "attention": getattr(model.config, "_attn_implementation", None),
        "sequenceLength": args.sequence_length,
        "scope": "inputs on device -> logits in host memory",
        "estimator": f"per-call wall ms over {args.iterations} calls after {args.warmup} untimed",
    }
    print(json.dumps(header), flush=True)
    for batch in [int(b) for b in args.batch_sizes.split(",")]:
        host = inputs_for(batch, args.sequence_length, config.vocab_size, generator)
        on_device = {k: v.to(device) for k, v in host.items()}
        with torch.inference_mode():
            logits = model(**on_device).logits.cpu().numpy()
            reference = ort_cpu.run(["logits"], {k: v.numpy() for k, v in host.items()})[0]
            diff = float(np.max(np.abs(logits - reference)))
            for _ in range(args.warmup):
                model(**on_device).logits.cpu()
            times = []
            for _ in range(args.iterations):
                start = time.perf_counter()
                model(**on_device).logits.cpu()
                times.append((time.perf_counter() - start) * 1000)
        print(json.dumps({
            "batch": batch,
            "p50Ms": round(statistics.median(times), 3),
            "meanMs": round(statistics.fmean(times), 3),
            "minMs": round(min(times), 3),
            "samplesPerS": round(batch * 1000 / statistics.median(times), 1),
            "maxAbsDiffVsOrtCpu": diff,
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
