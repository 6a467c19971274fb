#!/usr/bin/env python3
"""Exports a tiny sentence-transformers-style embedding model as a test fixture.

Dev-only (see tools/README.md): the product and its tests never run Python.
Writes test/data/st/mini-embed/ in the layout of a sentence-transformers
export on the Hub (all-MiniLM-L6-v2's modules): a seeded random-init
BertModel (hidden 32, 2 layers), the tokenizer of test/data/hf/bert,
modules.json (Transformer, Pooling, Normalize), 1_Pooling/config.json (mean
pooling) and onnx/model.onnx whose only output is last_hidden_state. Beside
it, texts.jsonl (rows to embed), sts.jsonl (sentence1, sentence2, score) and
reference.json: the PyTorch embeddings of the texts with sentence-transformers'
conventions (mean over the attention mask, then torch.nn.functional.normalize),
and the STS Spearman correlation between the cosine of each pair's PyTorch
embeddings and its gold score (scipy.stats.spearmanr, MTEB's STS metric).

Usage: .venv/bin/python tools/export-st-fixture.py [--out test/data/st/mini-embed]
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import scipy.stats
import torch
import transformers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

ROOT = Path(__file__).resolve().parent.parent
DATASET = ROOT / "datasets" / "default" / "sentiment.jsonl"
TOKENIZER = ROOT / "test" / "fixtures" / "hf" / "bert"
SEED = 4321
TEXT_ROWS = 24
STS_PAIRS = 40


def embed(model: BertModel, tok: PreTrainedTokenizerFast, texts: list[str]) -> np.ndarray:
    """sentence-transformers' Pooling(mean) then Normalize: sum(h * mask) / clamp(sum(mask), 1e-9), then L2."""
    enc = tok(texts, padding=True, truncation=True, max_length=128, return_tensors="pt", return_token_type_ids=True)
    with torch.no_grad():
        hidden = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * mask).sum(1) / torch.clamp(mask.sum(1), min=1e-9)
    return torch.nn.functional.normalize(pooled, p=2, dim=1).numpy()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "test" / "fixtures" / "st" / "mini-embed"))
    out = Path(parser.parse_args().out)
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    (out / "1_Pooling").mkdir()

    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(TOKENIZER / name, out / name)
    tok = PreTrainedTokenizerFast(tokenizer_file=str(out / "tokenizer.json"), pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", unk_token="[UNK]", mask_token="[MASK]")

    cfg = BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                     max_position_embeddings=128, initializer_range=0.1)
    cfg._attn_implementation = "eager"
    model = BertModel(cfg, add_pooling_layer=False).eval()
    with torch.no_grad():
        for pname, p in model.named_parameters():
            if pname.endswith("bias") or "LayerNorm" in pname:
                p.add_(0.1 * torch.randn_like(p))
    config = cfg.to_dict()
    config["architectures"] = ["BertModel"]
    for key in ("id2label", "label2id"):
        config.pop(key, None)
    (out / "config.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    (out / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ], indent=2) + "\n")
    (out / "1_Pooling" / "config.json").write_text(json.dumps({
        "word_embedding_dimension": 32, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
        "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False,
        "pooling_mode_weightedmean_tokens": False, "pooling_mode_lasttoken": False, "include_prompt": True,
    }, indent=2) + "\n")

    class Encoder(torch.nn.Module):
        def __init__(self, m: BertModel) -> None:
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    trace = tok(["a tiny trace", "another much longer sentence, so the trace sees padding"], padding=True, return_tensors="pt", return_token_type_ids=True)
    dyn = {n: {0: "batch", 1: "sequence"} for n in names}
    dyn["last_hidden_state"] = {0: "batch", 1: "sequence"}
    path = out / "onnx" / "model.onnx"
    torch.onnx.export(Encoder(model).eval(), tuple(trace[n] for n in names), str(path), input_names=names, output_names=["last_hidden_state"],
                      dynamic_axes=dyn, opset_version=14, dynamo=False, do_constant_folding=True)
    onnx.checker.check_model(str(path))
    # The exporter restores the wrapper's training flag recursively: put the model back in eval mode (dropout off).
    model.eval()

    rows = [json.loads(line) for line in DATASET.read_text().splitlines() if line.strip()]
    texts = [r["text"] for r in rows[:TEXT_ROWS]]
    with (out / "texts.jsonl").open("w") as f:
        for t in texts:
            f.write(json.dumps({"text": t}) + "\n")
    # Gold scores from word overlap (Jaccard × 5, rounded to 0.2), so the pairs have an order a model can follow.
    pool = [r["text"] for r in rows[100:400]]
    pairs = []
    for i in range(STS_PAIRS):
        a = pool[2 * i]
        b = pool[2 * i + 1] if i % 3 else a.replace(".", "").lower()
        wa, wb = set(a.lower().split()), set(b.lower().split())
        pairs.append({"sentence1": a, "sentence2": b, "score": round(5 * len(wa & wb) / max(1, len(wa | wb)) * 5) / 5})
    with (out / "sts.jsonl").open("w") as f:
        for p in pairs:
            f.write(json.dumps(p) + "\n")

    emb = embed(model, tok, texts)
    # Checked against onnxruntime with the same pooling, so the ONNX file is this model.
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    enc = tok(texts, padding=True, truncation=True, max_length=128, return_tensors="np", return_token_type_ids=True)
    hidden = sess.run(["last_hidden_state"], {n: enc[n].astype(np.int64) for n in names})[0]
    mask = enc["attention_mask"][..., None].astype(np.float32)
    pooled = (hidden * mask).sum(1) / np.clip(mask.sum(1), 1e-9, None)
    ort_emb = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    cos = (ort_emb * emb).sum(1)
    if cos.min() < 0.99999:
        raise SystemExit(f"onnxruntime embeddings differ from PyTorch: min cosine {cos.min()}")

    e1 = embed(model, tok, [p["sentence1"] for p in pairs])
    e2 = embed(model, tok, [p["sentence2"] for p in pairs])
    sims = (e1 * e2).sum(1)
    spearman = float(scipy.stats.spearmanr(sims, [p["score"] for p in pairs]).statistic)
    (out / "reference.json").write_text(json.dumps({
        "about": "PyTorch embeddings (mean pooling over the attention mask, then L2 normalisation) of texts.jsonl, and the Spearman correlation of cosine vs score over sts.jsonl; made by tools/export-st-fixture.py",
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__, "onnx": onnx.__version__, "onnxruntime": ort.__version__, "scipy": scipy.__version__},
        "texts": texts,
        "embeddings": [[float(x) for x in row] for row in emb],
        "sts": {"pairs": len(pairs), "spearman": spearman, "cosines": [float(s) for s in sims]},
    }, indent=1) + "\n")
    print(f"wrote {out}: {len(texts)} embeddings, STS spearman {spearman:.6f} over {len(pairs)} pairs; onnxruntime min cosine {cos.min():.8f}")


if __name__ == "__main__":
    main()
