"""Writes the small Parquet and Arrow fixtures under test/data/datasets/.

Dev-only: the product and its tests never run Python; the outputs are committed.
They hold the first ROWS rows of the embedded dataset (datasets/default/sentiment.jsonl),
so tests compare what they read with that file.

    python3 -m venv .venv && .venv/bin/pip install pyarrow datasets
    .venv/bin/python tools/make-dataset-fixtures.py
"""
import json
import shutil
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "test" / "fixtures" / "datasets"
ROWS = 120
ROW_GROUP = 50  # three row groups (50, 50, 20) so streaming crosses group boundaries


def rows():
    with open(ROOT / "datasets" / "default" / "sentiment.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for _, line in zip(range(ROWS), f)]


def main():
    data = rows()
    OUT.mkdir(parents=True, exist_ok=True)
    table = pa.table(
        {
            "text": pa.array([r["text"] for r in data], pa.string()),
            "label": pa.array([r["label"] for r in data], pa.int64()),
            "source": pa.array([r["source"] for r in data], pa.string()),
        }
    )
    for codec in ("snappy", "zstd", "gzip"):
        pq.write_table(table, OUT / f"pyarrow-{codec}.parquet", compression=codec, row_group_size=ROW_GROUP)

    with ipc.new_file(OUT / "pyarrow-file.arrow", table.schema) as w:
        for batch in table.to_batches(max_chunksize=ROW_GROUP):
            w.write_batch(batch)
    with ipc.new_stream(OUT / "pyarrow-stream.arrow", table.schema) as w:
        for batch in table.to_batches(max_chunksize=ROW_GROUP):
            w.write_batch(batch)

    features = datasets.Features(
        {
            "text": datasets.Value("string"),
            "label": datasets.ClassLabel(names=["negative", "positive"]),
            "source": datasets.Value("string"),
        }
    )
    ds = datasets.Dataset.from_dict({k: [r[k] for r in data] for k in ("text", "label", "source")}, features=features)
    ds.to_parquet(OUT / "datasets-to-parquet.parquet", batch_size=ROW_GROUP)

    for name in ("save-to-disk", "dataset-dict"):
        shutil.rmtree(OUT / name, ignore_errors=True)
    ds.save_to_disk(str(OUT / "save-to-disk"), num_shards=2)
    split = ds.train_test_split(test_size=20, shuffle=False)
    datasets.DatasetDict({"train": split["train"], "test": split["test"]}).save_to_disk(str(OUT / "dataset-dict"))

    for path in sorted(OUT.rglob("*")):
        if path.is_file():
            print(f"{path.relative_to(ROOT)}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
