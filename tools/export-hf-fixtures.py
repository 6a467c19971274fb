#!/usr/bin/env python3
"""Exports tiny, seeded, random-init Hugging Face models to ONNX as test fixtures.

Dev-only (see tools/README.md): the product and its tests never run Python.
For each architecture users bring (BERT, DistilBERT, RoBERTa, ALBERT, ELECTRA,
MPNet, XLM-RoBERTa, MiniLM, GPT-2 with and without past key values) it builds
a tiny config, trains a small tokenizer of the architecture's kind on the
embedded dataset, exports with the TorchScript exporter (`torch.onnx.export`,
dynamo=False, dynamic batch and sequence axes) at the opset chosen for that
architecture, and writes the folder in Hub layout:

    test/data/hf/<arch>/config.json            (with id2label)
    test/data/hf/<arch>/tokenizer.json
    test/data/hf/<arch>/tokenizer_config.json
    test/data/hf/<arch>/onnx/model.onnx
    test/data/hf/<arch>/reference.json         (sentences, the exact feeds, PyTorch outputs)

Each export is checked against PyTorch with onnxruntime on inputs of another
shape than the traced ones, so a trace that froze a dimension is caught here.

With --train-losses-only it rewrites no fixture file: for each classifier
(BERT, DistilBERT, RoBERTa, ALBERT, ELECTRA by default) it re-creates the
seeded model, checks its logits against the committed reference.json (so the
ONNX weights are this model's), maps the ONNX float initializers to torch
parameters, and records in train-reference.json the PyTorch loss over the
first 5 steps of plain SGD (lr 0.01, batch 8, the dataset's rows in order,
eval mode so dropout is off): the reference `inferbench train` is tested
against.

Usage: .venv/bin/python tools/export-hf-fixtures.py [--out test/data/hf] [--train-losses-only] [arch ...]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import sys
import warnings
from pathlib import Path

# Tokenizer training must be reproducible: its parallel merge counting is not ordered.
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import numpy as np
import onnx
import onnxruntime as ort
import torch
import transformers
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

ROOT = Path(__file__).resolve().parent.parent
DATASET = ROOT / "datasets" / "default" / "sentiment.jsonl"
SEED = 1234
VOCAB = 1000
MAX_LENGTH = 128
ID2LABEL = {0: "NEGATIVE", 1: "POSITIVE"}
SENTENCES = [
    "A wonderful film with a heartfelt story and superb acting.",
    "Loud.",
    "Terrible pacing, wooden performances, and a pointless ending. I walked out halfway through.",
    "the music app slaps - made my day #update",
]
# GPT-2 with past: a prefix fills the cache, then each row feeds a continuation of this many tokens.
PAST_PREFIXES = ["The music alone is worth", "I loved the"]
PAST_STEP_TOKENS = 2

warnings.filterwarnings("ignore")


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def corpus() -> list[str]:
    with DATASET.open(encoding="utf-8") as f:
        return [json.loads(line)["text"] for line in f if line.strip()]


# ---------------------------------------------------------------- tokenizers


def word_counts(texts: list[str], normalizer, pre_tokenizer) -> collections.Counter:
    """Words as the tokenizer itself splits them, counted over the corpus."""
    counts: collections.Counter = collections.Counter()
    for text in texts:
        norm = normalizer.normalize_str(text) if normalizer else text
        counts.update(w for w, _ in pre_tokenizer.pre_tokenize_str(norm))
    return counts


def ranked(counts: collections.Counter) -> list[str]:
    """Most frequent first, ties alphabetical: the vocabulary is the same on every export (the trainers break ties in hash order)."""
    return [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def wordpiece(texts: list[str], cls: str, sep: str, pad: str, unk: str, mask: str, pair_type_ids: bool) -> Tokenizer:
    """BERT-style WordPiece (BERT, DistilBERT, ELECTRA, MiniLM, MPNet): characters, ##characters, then frequent words."""
    normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True)
    pre = pre_tokenizers.BertPreTokenizer()
    counts = word_counts(texts, normalizer, pre)
    chars = sorted({c for w in counts for c in w})
    tokens = [pad, unk, cls, sep, mask] + chars + [f"##{c}" for c in chars]
    tokens += [w for w in ranked(counts) if len(w) > 1][: VOCAB - len(tokens)]
    tok = Tokenizer(models.WordPiece({t: i for i, t in enumerate(tokens)}, unk_token=unk, max_input_chars_per_word=100))
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre
    tok.add_special_tokens([pad, unk, cls, sep, mask])
    cls_id, sep_id = tok.token_to_id(cls), tok.token_to_id(sep)
    second = 1 if pair_type_ids else 0
    tok.post_processor = processors.TemplateProcessing(
        single=f"{cls}:0 $A:0 {sep}:0",
        pair=f"{cls}:0 $A:0 {sep}:0 $B:{second} {sep}:{second}",
        special_tokens=[(cls, cls_id), (sep, sep_id)],
    )
    tok.decoder = decoders.WordPiece(prefix="##")
    return tok


def byte_bpe(texts: list[str], specials: list[str], roberta: bool) -> Tokenizer:
    """Byte-level BPE (RoBERTa with <s> … </s>, GPT-2 with no added tokens); its trainer is deterministic."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.train_from_iterator(
        texts, trainers.BpeTrainer(vocab_size=VOCAB, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    )
    tok.decoder = decoders.ByteLevel()
    if roberta:
        tok.post_processor = processors.RobertaProcessing(("</s>", tok.token_to_id("</s>")), ("<s>", tok.token_to_id("<s>")), trim_offsets=True, add_prefix_space=False)
    else:
        tok.post_processor = processors.ByteLevel(trim_offsets=False)
    return tok


def unigram(texts: list[str], cls: str, sep: str, pad: str, unk: str, mask: str) -> Tokenizer:
    """SentencePiece-style Unigram with Metaspace (ALBERT, XLM-RoBERTa): ▁words and characters scored by log frequency."""
    normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("``", '"')])
    pre = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    counts = word_counts(texts, normalizer, pre)
    chars: collections.Counter = collections.Counter()
    for w, n in counts.items():
        for c in w:
            chars[c] += n
    specials = [pad, unk, cls, sep, mask] if cls == "[CLS]" else [cls, pad, sep, unk, mask]
    pieces = ranked(chars) + [w for w in ranked(counts) if len(w) > 1]
    pieces = pieces[: VOCAB - len(specials)]
    total = sum(chars.values()) + sum(counts.values())
    score = {**{c: n for c, n in chars.items()}, **{w: n for w, n in counts.items() if len(w) > 1}}
    vocab = [(t, 0.0) for t in specials] + [(p, float(np.log(score[p] / total))) for p in pieces]
    tok = Tokenizer(models.Unigram(vocab, unk_id=specials.index(unk), byte_fallback=False))
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre
    tok.add_special_tokens(specials)
    cls_id, sep_id = tok.token_to_id(cls), tok.token_to_id(sep)
    if cls == "[CLS]":
        tok.post_processor = processors.TemplateProcessing(
            single=f"{cls}:0 $A:0 {sep}:0", pair=f"{cls}:0 $A:0 {sep}:0 $B:1 {sep}:1", special_tokens=[(cls, cls_id), (sep, sep_id)]
        )
    else:
        tok.post_processor = processors.TemplateProcessing(
            single=f"{cls} $A {sep}", pair=f"{cls} $A {sep} {sep} $B {sep}", special_tokens=[(cls, cls_id), (sep, sep_id)]
        )
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    return tok


def hf_tokenizer(tok: Tokenizer, **special: str) -> PreTrainedTokenizerFast:
    return PreTrainedTokenizerFast(tokenizer_object=tok, model_max_length=MAX_LENGTH, **special)


# ---------------------------------------------------------------- architectures

TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64)


def bert_like_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = wordpiece(texts, "[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]", pair_type_ids=True)
    return hf_tokenizer(tok, cls_token="[CLS]", sep_token="[SEP]", pad_token="[PAD]", unk_token="[UNK]", mask_token="[MASK]")


def roberta_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = byte_bpe(texts, ["<s>", "<pad>", "</s>", "<unk>", "<mask>"], roberta=True)
    return hf_tokenizer(tok, bos_token="<s>", eos_token="</s>", cls_token="<s>", sep_token="</s>", pad_token="<pad>", unk_token="<unk>", mask_token="<mask>")


def mpnet_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = wordpiece(texts, "<s>", "</s>", "<pad>", "[UNK]", "<mask>", pair_type_ids=False)
    return hf_tokenizer(tok, bos_token="<s>", eos_token="</s>", cls_token="<s>", sep_token="</s>", pad_token="<pad>", unk_token="[UNK]", mask_token="<mask>")


def albert_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = unigram(texts, "[CLS]", "[SEP]", "<pad>", "<unk>", "[MASK]")
    return hf_tokenizer(tok, cls_token="[CLS]", sep_token="[SEP]", pad_token="<pad>", unk_token="<unk>", mask_token="[MASK]")


def xlmr_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = unigram(texts, "<s>", "</s>", "<pad>", "<unk>", "<mask>")
    return hf_tokenizer(tok, bos_token="<s>", eos_token="</s>", cls_token="<s>", sep_token="</s>", pad_token="<pad>", unk_token="<unk>", mask_token="<mask>")


def gpt2_tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = byte_bpe(texts, ["<|endoftext|>"], roberta=False)
    return hf_tokenizer(tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>", pad_token="<|endoftext|>")


def special_ids(tok: PreTrainedTokenizerFast) -> dict[str, int]:
    return {"pad_token_id": tok.pad_token_id, "bos_token_id": tok.bos_token_id or tok.cls_token_id, "eos_token_id": tok.eos_token_id or tok.sep_token_id}


ARCHS: dict[str, dict] = {
    "bert": dict(opset=11, tokenizer=bert_like_tokenizer, model="BertForSequenceClassification", config="BertConfig", inputs=["input_ids", "attention_mask", "token_type_ids"], extra={}),
    "distilbert": dict(opset=12, tokenizer=bert_like_tokenizer, model="DistilBertForSequenceClassification", config="DistilBertConfig", inputs=["input_ids", "attention_mask"],
                       extra=dict(dim=32, n_layers=2, n_heads=2, hidden_dim=64, seq_classif_dropout=0.0)),
    "roberta": dict(opset=13, tokenizer=roberta_tokenizer, model="RobertaForSequenceClassification", config="RobertaConfig", inputs=["input_ids", "attention_mask"],
                    extra=dict(max_position_embeddings=MAX_LENGTH + 2, type_vocab_size=1)),
    "albert": dict(opset=14, tokenizer=albert_tokenizer, model="AlbertForSequenceClassification", config="AlbertConfig", inputs=["input_ids", "attention_mask", "token_type_ids"],
                   extra=dict(embedding_size=16, num_hidden_groups=1)),
    "electra": dict(opset=15, tokenizer=bert_like_tokenizer, model="ElectraForSequenceClassification", config="ElectraConfig", inputs=["input_ids", "attention_mask", "token_type_ids"],
                    extra=dict(embedding_size=16)),
    "mpnet": dict(opset=16, tokenizer=mpnet_tokenizer, model="MPNetForSequenceClassification", config="MPNetConfig", inputs=["input_ids", "attention_mask"],
                  extra=dict(max_position_embeddings=MAX_LENGTH + 2, relative_attention_num_buckets=32), sdpa=False),
    "xlm-roberta": dict(opset=17, tokenizer=xlmr_tokenizer, model="XLMRobertaForSequenceClassification", config="XLMRobertaConfig", inputs=["input_ids", "attention_mask"],
                        extra=dict(max_position_embeddings=MAX_LENGTH + 2, type_vocab_size=1)),
    # MiniLM checkpoints (e.g. all-MiniLM-L6-v2, MiniLM-L12-H384) are BertModel with a narrow hidden size.
    "minilm": dict(opset=13, tokenizer=bert_like_tokenizer, model="BertForSequenceClassification", config="BertConfig", inputs=["input_ids", "attention_mask", "token_type_ids"],
                   extra=dict(hidden_size=48, num_attention_heads=3, intermediate_size=96, hidden_act="gelu")),
    "gpt2": dict(opset=14, tokenizer=gpt2_tokenizer, model="GPT2ForSequenceClassification", config="GPT2Config", inputs=["input_ids", "attention_mask"],
                 extra=dict(n_embd=32, n_layer=2, n_head=2, n_positions=MAX_LENGTH, n_inner=64)),
    "gpt2-past": dict(opset=17, tokenizer=gpt2_tokenizer, model="GPT2LMHeadModel", config="GPT2Config", inputs=["input_ids", "attention_mask", "position_ids"],
                      extra=dict(n_embd=32, n_layer=2, n_head=2, n_positions=MAX_LENGTH, n_inner=64), past=True),
}


def build_config(spec: dict, tok: PreTrainedTokenizerFast):
    cls = getattr(transformers, spec["config"])
    base = {} if spec["config"] in ("DistilBertConfig", "GPT2Config") else dict(TINY, max_position_embeddings=MAX_LENGTH)
    kwargs = dict(base, vocab_size=len(tok), num_labels=len(ID2LABEL), id2label=ID2LABEL, label2id={v: k for k, v in ID2LABEL.items()}, **special_ids(tok))
    kwargs.update(spec["extra"])
    # Large enough weights that every op matters to the logits, small enough that nothing saturates.
    kwargs["initializer_range"] = 0.1
    cfg = cls(**kwargs)
    if spec["config"] == "GPT2Config":
        cfg.resid_pdrop = cfg.embd_pdrop = cfg.attn_pdrop = 0.0
    # SDPA lowers to one aten op from opset 14; older opsets get the explicit attention every exporter emitted before it.
    cfg._attn_implementation = "sdpa" if spec["opset"] >= 14 and spec.get("sdpa", True) else "eager"
    return cfg


def perturb(model: torch.nn.Module) -> None:
    """Random-init LayerNorm is (1, 0) and biases 0; perturb them so a wrong bias or scale shows in the logits."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias"):
                p.add_(0.1 * torch.randn_like(p))
            elif "LayerNorm" in name or "layer_norm" in name or ".ln_" in name or "norm" in name.lower():
                p.add_(0.1 * torch.randn_like(p))


# ---------------------------------------------------------------- export


class DecoderWithPast(torch.nn.Module):
    """Flat-tensor signature of a decoder step (optimum's decoder_with_past layout) around a transformers Cache."""

    def __init__(self, model: torch.nn.Module, layers: int):
        super().__init__()
        self.model = model
        self.layers = layers

    def forward(self, input_ids, attention_mask, position_ids, *past):
        cache = transformers.DynamicCache(config=self.model.config)
        for i in range(self.layers):
            cache.update(past[2 * i], past[2 * i + 1], i)
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, past_key_values=cache, use_cache=True)
        present = []
        for layer in out.past_key_values.layers:
            present += [layer.keys, layer.values]
        return (out.logits, *present)


class ByName(torch.nn.Module):
    """Passes positional export inputs by keyword: forward() orders differ (GPT-2 takes past_key_values second)."""

    def __init__(self, model: torch.nn.Module, names: list[str]):
        super().__init__()
        self.model = model
        self.names = names

    def forward(self, *inputs):
        return self.model(**dict(zip(self.names, inputs))).logits


def past_names(layers: int, prefix: str) -> list[str]:
    return [f"{prefix}.{i}.{kind}" for i in range(layers) for kind in ("key", "value")]


def encode_batch(tok: PreTrainedTokenizerFast, texts: list[str], names: list[str]) -> dict[str, torch.Tensor]:
    enc = tok(texts, padding=True, return_tensors="pt", return_token_type_ids="token_type_ids" in names)
    return {n: enc[n].to(torch.int64) for n in names}


def decoder_feeds(model: torch.nn.Module, tok: PreTrainedTokenizerFast, layers: int) -> tuple[dict[str, torch.Tensor], list[str]]:
    """Inputs of one decoder step after the prefixes (right-aligned by left padding, as generation does)."""
    tok.padding_side = "left"
    prefix = tok(PAST_PREFIXES, padding=True, return_tensors="pt")
    mask = prefix["attention_mask"]
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.no_grad():
        out = model(input_ids=prefix["input_ids"], attention_mask=mask, position_ids=positions, use_cache=True)
    past = [t for layer in out.past_key_values.layers for t in (layer.keys, layer.values)]
    step = torch.tensor([[tok.convert_tokens_to_ids(t) for t in tok.tokenize(" the film")[:PAST_STEP_TOKENS]]] * len(PAST_PREFIXES))
    step_mask = torch.cat([mask, torch.ones_like(step)], dim=1)
    step_pos = positions[:, -1:] + 1 + torch.arange(step.shape[1])
    feeds = {"input_ids": step, "attention_mask": step_mask, "position_ids": step_pos}
    for name, t in zip(past_names(layers, "past_key_values"), past):
        feeds[name] = t.contiguous()
    return feeds, [tok.decode(ids) for ids in prefix["input_ids"]]


def tensor_json(t: torch.Tensor) -> dict:
    arr = t.detach().cpu().numpy()
    dtype = {np.dtype("int64"): "int64", np.dtype("float32"): "float32"}[arr.dtype]
    data = arr.reshape(-1).tolist()
    return {"dtype": dtype, "dims": list(arr.shape), "data": data}


def export_arch(arch: str, spec: dict, out_root: Path, texts: list[str]) -> dict:
    seed_everything(SEED)
    out = out_root / arch
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    tok = spec["tokenizer"](texts)
    cfg = build_config(spec, tok)
    model = getattr(transformers, spec["model"])(cfg).eval()
    perturb(model)
    names = list(spec["inputs"])
    past = spec.get("past", False)
    layers = cfg.num_hidden_layers

    if past:
        module = DecoderWithPast(model, layers).eval()
        feeds, prefixes = decoder_feeds(model, tok, layers)
        in_names = names + past_names(layers, "past_key_values")
        out_names = ["logits"] + past_names(layers, "present")
        dyn = {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "past_sequence + sequence"}, "position_ids": {0: "batch", 1: "sequence"}}
        dyn |= {n: {0: "batch", 2: "past_sequence"} for n in past_names(layers, "past_key_values")}
        dyn |= {"logits": {0: "batch", 1: "sequence"}} | {n: {0: "batch", 2: "past_sequence + sequence"} for n in past_names(layers, "present")}
        # Trace with other sizes than the reference (batch 3, past 5, step 3), so a frozen dimension fails the check below.
        g = torch.Generator().manual_seed(SEED)
        heads, head_dim = cfg.n_head, cfg.n_embd // cfg.n_head
        trace = {"input_ids": torch.randint(5, len(tok), (3, 3), generator=g), "attention_mask": torch.ones(3, 8, dtype=torch.int64),
                 "position_ids": torch.arange(5, 8).repeat(3, 1)}
        for n in past_names(layers, "past_key_values"):
            trace[n] = torch.randn(3, heads, 5, head_dim, generator=g)
        sentences = {"prefixes": prefixes, "step": tok.decode(feeds["input_ids"][0])}
    else:
        module = ByName(model, names).eval()
        feeds = encode_batch(tok, SENTENCES, names)
        in_names, out_names = names, ["logits"]
        dyn = {n: {0: "batch", 1: "sequence"} for n in names} | {"logits": {0: "batch"}}
        trace = encode_batch(tok, ["a b c d e f g h i j k l", "x y", "one two three"], names)
        sentences = SENTENCES

    path = out / "onnx" / "model.onnx"
    torch.onnx.export(module, tuple(trace[n] for n in in_names), str(path), input_names=in_names, output_names=out_names,
                      dynamic_axes=dyn, opset_version=spec["opset"], dynamo=False, do_constant_folding=True)
    with torch.no_grad():
        ref = module(*(feeds[n] for n in in_names))
    ref_outputs = list(ref) if past else [ref]
    outputs = dict(zip(out_names, ref_outputs))

    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ort_outs = sess.run(out_names, {n: feeds[n].numpy() for n in in_names})
    ort_diff = max(float(np.max(np.abs(a - outputs[n].numpy()))) for n, a in zip(out_names, ort_outs))
    if ort_diff > 1e-4:
        raise SystemExit(f"{arch}: onnxruntime differs from PyTorch by {ort_diff} on the reference inputs")

    proto = onnx.load(str(path))
    ops = collections.Counter(n.op_type for n in proto.graph.node)
    cfg.save_pretrained(out)
    tok.save_pretrained(out)
    for extra in ("special_tokens_map.json", "chat_template.jinja"):
        (out / extra).unlink(missing_ok=True)
    reference = {
        "architecture": arch,
        "model_class": spec["model"],
        "opset": spec["opset"],
        "attn_implementation": cfg._attn_implementation,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__, "onnx": onnx.__version__, "onnxruntime": ort.__version__},
        "seed": SEED,
        "sentences": sentences,
        "inputs": {n: tensor_json(feeds[n]) for n in in_names},
        "outputs": {n: tensor_json(t) for n, t in outputs.items()},
        "onnxruntime_max_abs_diff": ort_diff,
        "ops": dict(sorted(ops.items())),
    }
    (out / "reference.json").write_text(json.dumps(reference, indent=1) + "\n", encoding="utf-8")
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    if size > 2 * 1024 * 1024:
        raise SystemExit(f"{arch}: fixture folder is {size} bytes, over the 2 MB limit")
    return {"arch": arch, "opset": spec["opset"], "bytes": size, "ort_diff": ort_diff, "ops": sorted(ops)}


TRAIN_ARCHS = ["bert", "distilbert", "roberta", "albert", "electra"]
TRAIN_STEPS = 5
TRAIN_BATCH = 8
TRAIN_LR = 0.01


def dataset_rows(count: int) -> list[dict]:
    with DATASET.open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return rows[:count]


def initializer_params(proto, model: torch.nn.Module) -> tuple[list[str], list[dict]]:
    """ONNX float initializers that are torch parameters (by name, or a Linear weight folded to its transpose), and those that are not."""
    params = {name.removeprefix("model."): p.detach().numpy() for name, p in model.named_parameters()}
    trainable, frozen, seen = [], [], collections.Counter()
    for init in proto.graph.initializer:
        arr = onnx.numpy_helper.to_array(init)
        if arr.dtype != np.float32:
            continue
        name = init.name.removeprefix("model.")
        match = name if name in params and params[name].shape == arr.shape else None
        if match is None and arr.ndim == 2:
            match = next((n for n, p in params.items() if p.ndim == 2 and p.T.shape == arr.shape and np.array_equal(p.T, arr)), None)
        if match is None:
            frozen.append({"name": init.name, "dims": list(arr.shape)})
        else:
            trainable.append(init.name)
            seen[match] += 1
    twice = [n for n, k in seen.items() if k > 1]
    if twice:
        raise SystemExit(f"torch parameters that appear as several initializers (SGD would diverge): {twice}")
    return trainable, frozen


def record_train_losses(arch: str, spec: dict, out_root: Path, texts: list[str]) -> dict:
    """Re-creates the fixture's seeded model exactly as export_arch does and records 5 SGD losses; writes only train-reference.json."""
    seed_everything(SEED)
    out = out_root / arch
    tok = spec["tokenizer"](texts)
    cfg = build_config(spec, tok)
    model = getattr(transformers, spec["model"])(cfg).eval()
    perturb(model)
    names = list(spec["inputs"])
    module = ByName(model, names).eval()
    ref = json.loads((out / "reference.json").read_text(encoding="utf-8"))
    feeds = {n: torch.tensor(ref["inputs"][n]["data"], dtype=torch.int64).reshape(ref["inputs"][n]["dims"]) for n in names}
    with torch.no_grad():
        logits = module(*(feeds[n] for n in names))
    diff = float(np.max(np.abs(logits.numpy().reshape(-1) - np.array(ref["outputs"]["logits"]["data"], dtype=np.float32))))
    if diff > 1e-5:
        raise SystemExit(f"{arch}: the re-created model differs from reference.json by {diff}; re-export the fixture first")
    trainable, frozen = initializer_params(onnx.load(str(out / "onnx" / "model.onnx")), model)
    rows = dataset_rows(TRAIN_STEPS * TRAIN_BATCH)
    optimizer = torch.optim.SGD(model.parameters(), lr=TRAIN_LR)
    losses, batches = [], []
    for step in range(TRAIN_STEPS):
        chunk = rows[step * TRAIN_BATCH:(step + 1) * TRAIN_BATCH]
        batch = encode_batch(tok, [r["text"] for r in chunk], names)
        labels = torch.tensor([int(r["label"]) for r in chunk])
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(module(*(batch[n] for n in names)), labels)
        loss.backward()
        optimizer.step()
        losses.append(float(loss.item()))
        batches.append({"labels": labels.tolist(), "input_ids": tensor_json(batch["input_ids"])})
    reference = {
        "architecture": arch,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
        "optimizer": "sgd", "learning_rate": TRAIN_LR, "batch_size": TRAIN_BATCH, "steps": TRAIN_STEPS,
        "rows": f"the first {TRAIN_STEPS * TRAIN_BATCH} rows of datasets/default/sentiment.jsonl, in order",
        "mode": "eval (dropout off), mean cross-entropy over the batch",
        "logits_max_abs_diff_vs_reference": diff,
        "trainable_initializers": sorted(trainable),
        "frozen_float_initializers": frozen,
        "batches": batches,
        "losses": losses,
    }
    (out / "train-reference.json").write_text(json.dumps(reference, indent=1) + "\n", encoding="utf-8")
    return reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "test" / "fixtures" / "hf"))
    parser.add_argument("--train-losses-only", action="store_true", help="only (re)write train-reference.json of the classifier fixtures")
    parser.add_argument("archs", nargs="*")
    args = parser.parse_args()
    torch.set_num_threads(1)
    texts = corpus()
    if args.train_losses_only:
        for arch in args.archs or TRAIN_ARCHS:
            ref = record_train_losses(arch, ARCHS[arch], Path(args.out), texts)
            print(f"{arch:12} trainable {len(ref['trainable_initializers'])}  frozen {[f['name'] for f in ref['frozen_float_initializers']]}  losses {ref['losses']}", flush=True)
        return
    args.archs = args.archs or list(ARCHS)
    all_ops: set[str] = set()
    for arch in args.archs:
        if arch not in ARCHS:
            raise SystemExit(f"unknown architecture {arch}; choose from {', '.join(ARCHS)}")
        info = export_arch(arch, ARCHS[arch], Path(args.out), texts)
        all_ops.update(info["ops"])
        print(f"{arch:12} opset {info['opset']}  {info['bytes'] / 1024:7.1f} KiB  onnxruntime vs torch {info['ort_diff']:.2e}  ops {', '.join(info['ops'])}", flush=True)
    print(f"ops over all fixtures: {', '.join(sorted(all_ops))}")


if __name__ == "__main__":
    sys.exit(main())
