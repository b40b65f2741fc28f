#!/usr/bin/env python3
"""Iceberg tables written and read by pyiceberg 0.12 (SqlCatalog on SQLite, pyarrow tables),
for the Iceberg reader's interop tests (tests/iceberg_read*.rs):

  iceberg_tables.py write KIND WAREHOUSE SEED   writes table `default.t` of KIND (see TABLES)
                                                 with random data from SEED; prints one JSON
                                                 line: {"root": table folder, "metadata":
                                                 current metadata file, "snapshots": [ids]}
  iceberg_tables.py rows ROOT [SNAPSHOT]         the rows pyiceberg scans from the newest
                                                 metadata file of ROOT (at SNAPSHOT), one JSON
                                                 line each, in the `parquet-serde cat` mapping
  iceberg_tables.py info ROOT                    one JSON line: the snapshots (id, operation)
                                                 and the current snapshot's data files
  iceberg_tables.py seqs ROOT...                 per table, one JSON line: its rows, whether
                                                 `seq` is 0..rows exactly once with message
                                                 `event {seq}`, its data files (0 rows for a
                                                 folder without metadata)
  iceberg_tables.py plan ROOT COL LO HI          the data files pyiceberg plans for
                                                 LO <= COL < HI (ISO timestamps), one per line
"""

import datetime
import glob
import json
import os
import random
import re
import sys
import warnings

import pyarrow as pa

warnings.simplefilter("ignore")

UTC = datetime.timezone.utc
START = datetime.datetime(2026, 11, 28, tzinfo=UTC)


def catalog(warehouse):
    from pyiceberg.catalog.sql import SqlCatalog

    return SqlCatalog(
        "local",
        uri="sqlite:///%s/catalog.db" % warehouse,
        warehouse="file://%s" % warehouse,
    )


def batch(rng, n, first, extra=None, region_name="region", hours=6):
    """`n` random rows with ids from `first`: a region (identity partition), a timestamp
    spread over `hours` hours (hour partition), a value with nulls, a message."""
    ids = list(range(first, first + n))
    cols = {
        "id": pa.array(ids, pa.int64()),
        "ts": pa.array(
            [START + datetime.timedelta(seconds=rng.randrange(hours * 3600), microseconds=rng.randrange(10**6)) for _ in ids],
            pa.timestamp("us", tz="UTC"),
        ),
        region_name: pa.array([rng.choice(["eu", "us", "ap"]) for _ in ids], pa.string()),
        "value": pa.array([None if rng.random() < 0.2 else rng.uniform(-1e6, 1e6) for _ in ids], pa.float64()),
        "msg": pa.array([None if rng.random() < 0.1 else "m%d-%x" % (i, rng.getrandbits(24)) for i in ids], pa.string()),
    }
    if extra:
        cols.update(extra(ids))
    return pa.table(cols)


def schema(region_name="region"):
    return pa.schema(
        [
            pa.field("id", pa.int64(), nullable=False),
            pa.field("ts", pa.timestamp("us", tz="UTC")),
            pa.field(region_name, pa.string()),
            pa.field("value", pa.float64()),
            pa.field("msg", pa.string()),
        ]
    )


def fit(table, target):
    """`table` cast to the Arrow schema of the Iceberg table `target`."""
    return table.cast(target.schema().as_arrow())


def write_evolved(warehouse, rng):
    """Identity partition on region, hour partition on ts; two appends; rename msg ->
    message; add column `level` (int); an append; an overwrite of region 'eu'; an append."""
    from pyiceberg.expressions import EqualTo
    from pyiceberg.transforms import HourTransform, IdentityTransform

    cat = catalog(warehouse)
    cat.create_namespace("default")
    t = cat.create_table("default.t", schema=schema())
    with t.update_spec() as spec:
        spec.add_field("region", IdentityTransform(), "region")
        spec.add_field("ts", HourTransform(), "ts_hour")
    next_id = 0
    for _ in range(2):
        n = rng.randrange(20, 60)
        t.append(fit(batch(rng, n, next_id), t))
        next_id += n
    with t.update_schema() as s:
        s.rename_column("msg", "message")
    with t.update_schema() as s:
        from pyiceberg.types import IntegerType

        s.add_column("level", IntegerType())

    def levels(ids):
        return {"level": pa.array([None if i % 5 == 0 else i % 4 for i in ids], pa.int32())}

    def renamed(tb):
        return tb.rename_columns(["message" if c == "msg" else c for c in tb.column_names])

    n = rng.randrange(20, 60)
    t.append(fit(renamed(batch(rng, n, next_id, levels)), t))
    next_id += n
    n = rng.randrange(10, 30)
    eu = renamed(batch(rng, n, next_id, levels))
    eu = eu.set_column(eu.column_names.index("region"), "region", pa.array(["eu"] * n, pa.string()))
    t.overwrite(fit(eu, t), overwrite_filter=EqualTo("region", "eu"))
    next_id += n
    n = rng.randrange(20, 60)
    t.append(fit(renamed(batch(rng, n, next_id, levels)), t))
    return t


def write_plain(warehouse, rng):
    """Not partitioned: three appends of 50 rows each over one hour apiece (hour k holds
    ids 50k..50k+49), so the files' bounds on ts and id are disjoint."""
    cat = catalog(warehouse)
    cat.create_namespace("default")
    t = cat.create_table("default.t", schema=schema())
    for k in range(3):
        ids = list(range(50 * k, 50 * k + 50))
        tb = pa.table(
            {
                "id": pa.array(ids, pa.int64()),
                "ts": pa.array([START + datetime.timedelta(hours=k, seconds=i % 3600) for i in ids], pa.timestamp("us", tz="UTC")),
                "region": pa.array(["eu"] * 50),
                "value": pa.array([float(i) for i in ids]),
                "msg": pa.array(["m%d" % i for i in ids]),
            }
        )
        t.append(fit(tb, t))
    return t


TABLES = {"evolved": write_evolved, "plain": write_plain}


def newest_metadata(root):
    """The newest metadata file of the table folder `root` (highest version number)."""
    files = glob.glob(os.path.join(root, "metadata", "*.metadata.json"))

    def version(p):
        m = re.match(r"(?:v)?(\d+)", os.path.basename(p))
        return int(m.group(1)) if m else -1

    return max(files, key=version)


def cat(v):
    """A pyiceberg value in the `parquet-serde cat` JSON mapping."""
    if isinstance(v, dict):
        return {k: cat(x) for k, x in v.items()}
    if isinstance(v, list):
        return [cat(x) for x in v]
    if isinstance(v, datetime.datetime):
        return v.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


def main():
    cmd = sys.argv[1]
    if cmd == "write":
        warehouse = sys.argv[3]
        os.makedirs(warehouse, exist_ok=True)
        t = TABLES[sys.argv[2]](warehouse, random.Random(int(sys.argv[4])))
        t = t.refresh()
        root = t.location()[len("file://"):] if t.location().startswith("file://") else t.location()
        print(json.dumps({"root": root, "metadata": t.metadata_location, "snapshots": [s.snapshot_id for s in t.snapshots()]}))
    elif cmd == "rows":
        from pyiceberg.table import StaticTable

        t = StaticTable.from_metadata(newest_metadata(sys.argv[2]))
        snapshot = int(sys.argv[3]) if len(sys.argv) > 3 else None
        for row in t.scan(snapshot_id=snapshot).to_arrow().to_pylist():
            print(json.dumps(cat(row), ensure_ascii=False, separators=(",", ":")))
    elif cmd == "info":
        from pyiceberg.table import StaticTable

        t = StaticTable.from_metadata(newest_metadata(sys.argv[2]))
        files = [task.file.file_path for task in t.scan().plan_files()]
        snaps = [{"id": s.snapshot_id, "operation": s.summary.operation.value} for s in t.snapshots()]
        print(json.dumps({"snapshots": snaps, "files": sorted(files)}))
    elif cmd == "seqs":
        from pyiceberg.table import StaticTable

        for root in sys.argv[2:]:
            if not glob.glob(os.path.join(root, "metadata", "*.metadata.json")):
                print(json.dumps({"root": root, "rows": 0, "exact": True, "files": 0}))
                continue
            t = StaticTable.from_metadata(newest_metadata(root))
            if t.current_snapshot() is None:
                print(json.dumps({"root": root, "rows": 0, "exact": True, "files": 0}))
                continue
            a = t.scan(selected_fields=("seq", "message")).to_arrow()
            seqs = a.column("seq").to_pylist()
            msgs = dict(zip(seqs, a.column("message").to_pylist()))
            exact = sorted(seqs) == list(range(len(seqs))) and all(msgs[q] == "event %d" % q for q in seqs)
            files = len(list(t.scan().plan_files()))
            print(json.dumps({"root": root, "rows": len(seqs), "exact": exact, "files": files}))
    elif cmd == "plan":
        from pyiceberg.expressions import And, GreaterThanOrEqual, LessThan
        from pyiceberg.table import StaticTable

        t = StaticTable.from_metadata(newest_metadata(sys.argv[2]))
        col, lo, hi = sys.argv[3], sys.argv[4], sys.argv[5]
        for task in t.scan(row_filter=And(GreaterThanOrEqual(col, lo), LessThan(col, hi))).plan_files():
            p = task.file.file_path
            print(p[len("file://"):] if p.startswith("file://") else p)
    else:
        raise SystemExit("unknown command %r" % cmd)


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)
