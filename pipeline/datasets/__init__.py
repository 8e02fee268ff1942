"""Real datasets, class-incremental splitting and the shard files the device reads (numpy-only package)."""
from pipeline.datasets.dataset import Dataset, normalize, stratified_split, subsample
from pipeline.datasets.registry import CATALOG, DatasetInfo, availability, load_dataset, load_raw
from android_harness.device.shards import ShardHeader, read_header, read_records, read_shard, write_shard
from pipeline.datasets.split import Task, class_order, split_from_spec, split_tasks
from pipeline.datasets.task_shards import load_task_index, read_task_shards, write_task_shards

__all__ = [
    "CATALOG", "Dataset", "DatasetInfo", "ShardHeader", "Task", "availability", "class_order", "load_dataset",
    "load_raw", "load_task_index", "normalize", "read_header", "read_records", "read_shard", "read_task_shards",
    "split_from_spec", "split_tasks", "stratified_split", "subsample", "write_shard", "write_task_shards",
]
