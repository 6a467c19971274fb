"""Dev-only check (not a test): export a randomly initialised Hugging Face
GPT2LMHeadModel with its KV cache to ONNX in transformers.js layout, with
torch.onnx, so inferbench's TextGeneration and greedy loop can be checked on
a graph written by the real exporter rather than by inferbench's own builder.

Usage: .venv/bin/python tools/export-hf-gpt2.py <tokenizer-folder> <out-folder>
(the tokenizer folder is the generated default decoder's; its vocabulary size
is used for the model).
"""
import json
import os
import shutil
import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.cache_utils import DynamicCache

src, out = sys.argv[1], sys.argv[2]
cfg_src = json.load(open(os.path.join(src, "config.json")))
torch.manual_seed(0)
config = GPT2Config(
    vocab_size=cfg_src["vocab_size"], n_positions=256, n_embd=64, n_layer=2, n_head=4,
    bos_token_id=cfg_src["bos_token_id"], eos_token_id=cfg_src["eos_token_id"],
)
model = GPT2LMHeadModel(config).eval()
L, H, D = config.n_layer, config.n_head, config.n_embd // config.n_head


class WithPast(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask, position_ids, *past):
        cache = DynamicCache()
        for i in range(L):
            cache.update(past[2 * i], past[2 * i + 1], i)
        o = self.m(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids, past_key_values=cache, use_cache=True)
        flat = []
        for i in range(L):
            layer = o.past_key_values.layers[i]
            flat += [layer.keys, layer.values]
        return (o.logits, *flat)


os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
past_names = [f"past_key_values.{i}.{kv}" for i in range(L) for kv in ("key", "value")]
present_names = [n.replace("past_key_values", "present") for n in past_names]
ids = torch.tensor([[5, 6, 7]])
past = [torch.zeros(1, H, 2, D) for _ in past_names]
dyn = {"input_ids": {0: "batch_size", 1: "sequence_length"}, "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
       "position_ids": {0: "batch_size", 1: "sequence_length"}, "logits": {0: "batch_size", 1: "sequence_length"}}
for n in past_names:
    dyn[n] = {0: "batch_size", 2: "past_sequence_length"}
for n in present_names:
    dyn[n] = {0: "batch_size", 2: "total_sequence_length"}
torch.onnx.export(
    WithPast(model), (ids, torch.ones(1, 5, dtype=torch.long), torch.tensor([[2, 3, 4]]), *past),
    os.path.join(out, "onnx", "model.onnx"), input_names=["input_ids", "attention_mask", "position_ids", *past_names],
    output_names=["logits", *present_names], dynamic_axes=dyn, opset_version=14, dynamo=False,
)
config.save_pretrained(out)
json.dump({"bos_token_id": config.bos_token_id, "eos_token_id": config.eos_token_id}, open(os.path.join(out, "generation_config.json"), "w"))
for f in ("tokenizer.json", "tokenizer_config.json"):
    shutil.copy(os.path.join(src, f), os.path.join(out, f))
print(out)
