#!/usr/bin/env python3
"""Delta tables written and read by delta-rs (`deltalake` from PyPI), for the Delta reader's
interop tests (tests/delta_read_interop.rs):

  delta_tables.py write KIND DIR          writes a table of KIND at DIR (see TABLES)
  delta_tables.py rows DIR [VERSION]      its rows as delta-rs reads them, one JSON line each,
                                          in the `parquet-serde cat` mapping
  delta_tables.py files DIR COL VALUE     the absolute paths of the files delta-rs keeps for
                                          the partition filter COL = VALUE (one per line)
  delta_tables.py split_checkpoint DIR V  rewrites checkpoint V as a 2-part checkpoint
"""

import datetime
import decimal
import json
import os
import sys
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable, write_deltalake

warnings.simplefilter("ignore")

UTC = datetime.timezone.utc


def mixed(first, n):
    """`n` rows from `first`: every partition type (string, date, int, with nulls) and
    nested, decimal and timestamp columns."""
    ids = list(range(first, first + n))
    region = [None if i % 7 == 3 else ["eu", "us", "north america", "x/y"][i % 4] for i in ids]
    day = [None if i % 5 == 4 else datetime.date(2026, 11, 1 + i % 3) for i in ids]
    return pa.table(
        {
            "id": pa.array(ids, pa.int64()),
            "name": pa.array([None if i % 6 == 1 else "n%d" % i for i in ids]),
            "region": pa.array(region),
            "day": pa.array(day, pa.date32()),
            "n": pa.array([i % 3 for i in ids], pa.int32()),
            "dec": pa.array(
                [None if i % 4 == 2 else decimal.Decimal(i * 37 - 500).scaleb(-2) for i in ids],
                pa.decimal128(10, 2),
            ),
            "ts": pa.array(
                [datetime.datetime(2026, 11, 1, tzinfo=UTC) + datetime.timedelta(microseconds=i * 1_000_003) for i in ids],
                pa.timestamp("us", tz="UTC"),
            ),
            "s": pa.array(
                [None if i % 5 == 0 else {"x": i, "y": None if i % 2 else "y%d" % i} for i in ids],
                pa.struct([("x", pa.int32()), ("y", pa.string())]),
            ),
            "l": pa.array([None if i % 9 == 0 else list(range(i % 4)) for i in ids], pa.list_(pa.int64())),
            "m": pa.array(
                [None if i % 8 == 0 else [("k%d" % j, None if j == 1 else "v%d" % i) for j in range(i % 3)] for i in ids],
                pa.map_(pa.string(), pa.string()),
            ),
        }
    )


def write_mixed(path):
    """v0 write, v1 append, checkpoint at v1, v2 append, v3 delete (removes and re-adds),
    v4 optimize (compaction: removes and adds), v5 append."""
    parts = ["region", "day", "n"]
    write_deltalake(path, mixed(0, 40), partition_by=parts)
    write_deltalake(path, mixed(40, 20), mode="append", partition_by=parts)
    DeltaTable(path).create_checkpoint()
    write_deltalake(path, mixed(60, 20), mode="append", partition_by=parts)
    DeltaTable(path).delete("id % 10 = 3")
    DeltaTable(path).optimize.compact()
    write_deltalake(path, mixed(80, 10), mode="append", partition_by=parts)


def write_ranges(path):
    """Five appends of 100 ids each (0..99, 100..199, ...), not partitioned: one file each,
    whose stats bound the ids, words and timestamps."""
    for k in range(5):
        ids = list(range(k * 100, k * 100 + 100))
        write_deltalake(
            path,
            pa.table(
                {
                    "id": pa.array(ids, pa.int64()),
                    "word": ["w%03d" % (i % 1000) for i in ids],
                    # id seconds (and 123 us) after 2026-11-24T00:00:00Z
                    "ts": pa.array(
                        [datetime.datetime(2026, 11, 24, tzinfo=UTC) + datetime.timedelta(seconds=i, microseconds=123) for i in ids],
                        pa.timestamp("us", tz="UTC"),
                    ),
                }
            ),
            mode="append",
        )


def write_deletion_vectors(path):
    write_deltalake(path, pa.table({"a": [1, 2, 3]}), configuration={"delta.enableDeletionVectors": "true"})


def write_column_mapping(path):
    write_deltalake(path, pa.table({"a": [1, 2, 3]}), configuration={"delta.columnMapping.mode": "name"})


TABLES = {
    "mixed": write_mixed,
    "ranges": write_ranges,
    "deletion_vectors": write_deletion_vectors,
    "column_mapping": write_column_mapping,
}


def cat(v):
    """A delta-rs value in the `parquet-serde cat` JSON mapping."""
    if isinstance(v, dict):
        return {k: cat(x) for k, x in v.items()}
    if isinstance(v, list):
        # Maps come back as lists of (key, value) tuples.
        return [{"key": cat(x[0]), "value": cat(x[1])} if isinstance(x, tuple) else cat(x) for x in v]
    if isinstance(v, datetime.datetime):
        return v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    return v


def main():
    cmd = sys.argv[1]
    if cmd == "write":
        TABLES[sys.argv[2]](sys.argv[3])
    elif cmd == "rows":
        dt = DeltaTable(sys.argv[2], version=int(sys.argv[3]) if len(sys.argv) > 3 else None)
        for row in dt.to_pyarrow_table().to_pylist():
            print(json.dumps(cat(row), ensure_ascii=False, separators=(",", ":")))
    elif cmd == "files":
        dt = DeltaTable(sys.argv[2])
        for f in dt.file_uris(partition_filters=[(sys.argv[3], "=", sys.argv[4])]):
            print(f[len("file://"):] if f.startswith("file://") else f)
    elif cmd == "split_checkpoint":
        path, v = sys.argv[2], int(sys.argv[3])
        log = os.path.join(path, "_delta_log")
        single = os.path.join(log, "%020d.checkpoint.parquet" % v)
        table = pq.read_table(single)
        half = table.num_rows // 2
        for p, t in [(1, table.slice(0, half)), (2, table.slice(half))]:
            pq.write_table(t, os.path.join(log, "%020d.checkpoint.%010d.%010d.parquet" % (v, p, 2)))
        os.remove(single)
    else:
        raise SystemExit("unknown command %r" % cmd)


if __name__ == "__main__":
    main()
    # delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
    # exception", about 1 run in 20 with several at once): leave before the teardown.
    sys.stdout.flush()
    os._exit(0)
