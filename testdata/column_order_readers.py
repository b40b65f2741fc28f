#!/usr/bin/env python3
"""What pyarrow and DuckDB do with a file's statistics, per column, printed as JSON lines.

  column_order_readers.py FILE BROKEN COLUMN=THRESHOLD...

FILE is a file of several row groups whose values rise with the row group; BROKEN is the
same file with the column chunks of every row group but the last overwritten with garbage
(footer intact). For each COLUMN, the predicate is `COLUMN >= THRESHOLD`, which only the
last row group meets (THRESHOLD is a number, or for an INT96 column nanoseconds since the
epoch). One object per reader and column:

  {"reader": "pyarrow"|"duckdb", "column": ..., "minmax": bool, "prunes": bool, "rows": n}

- minmax: the reader shows a min and a max for every row group of the column (pyarrow:
  `Statistics.has_min_max`; DuckDB: `parquet_metadata` stats_min/stats_max);
- prunes: the reader answers the predicate on BROKEN without touching the garbage, which it
  can only do by skipping the other row groups on their statistics (pyarrow: a dataset scan
  with the filter; DuckDB: `SELECT count(*) ... WHERE`); a reader that reads them fails;
- rows: the count the reader gives on FILE (intact), to check the answer itself.
"""

import datetime
import json
import sys

import duckdb
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq


def literal(column_type, threshold):
    if pa.types.is_timestamp(column_type):
        epoch = datetime.datetime(1970, 1, 1)
        return pa.scalar(epoch + datetime.timedelta(microseconds=threshold // 1000), column_type)
    return pa.scalar(float(threshold), column_type)


def pyarrow_row(path, broken, column, threshold):
    md = pq.ParquetFile(path).metadata
    j = md.schema.names.index(column)
    minmax = all(
        md.row_group(i).column(j).statistics is not None
        and md.row_group(i).column(j).statistics.has_min_max
        for i in range(md.num_row_groups)
    )
    dataset = ds.dataset(path)
    t = dataset.schema.field(column).type
    if pa.types.is_float16(t):
        # pyarrow 26 has no comparison of half floats: the predicate on float32, which its
        # statistics pruning does not see through (so it never prunes a FLOAT16 column).
        expr = ds.field(column).cast(pa.float32()) >= pa.scalar(float(threshold), pa.float32())
    else:
        expr = ds.field(column) >= literal(t, threshold)
    rows = dataset.to_table(filter=expr).num_rows
    try:
        ds.dataset(broken).to_table(filter=expr)
        prunes = True
    except Exception:
        prunes = False
    return {"reader": "pyarrow", "column": column, "minmax": minmax, "prunes": prunes, "rows": rows}


def duckdb_row(path, broken, column, threshold):
    con = duckdb.connect()
    stats = con.execute(
        "SELECT coalesce(stats_min_value, stats_min), coalesce(stats_max_value, stats_max) "
        "FROM parquet_metadata(?) WHERE path_in_schema = ?",
        [path, column],
    ).fetchall()
    minmax = len(stats) > 0 and all(lo is not None and hi is not None for lo, hi in stats)
    types = dict(con.execute("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(?))", [path]).fetchall())
    if types[column].startswith("TIMESTAMP"):
        lit = f"make_timestamp({threshold // 1000}::BIGINT)"
    else:
        lit = f"{float(threshold)}"
    query = f'SELECT count(*) FROM read_parquet(?) WHERE "{column}" >= {lit}'
    rows = con.execute(query, [path]).fetchone()[0]
    try:
        con.execute(query, [broken]).fetchone()
        prunes = True
    except Exception:
        prunes = False
    return {"reader": "duckdb", "column": column, "minmax": minmax, "prunes": prunes, "rows": rows}


def main():
    path, broken = sys.argv[1], sys.argv[2]
    for arg in sys.argv[3:]:
        column, threshold = arg.split("=")
        threshold = int(threshold)
        for row in (pyarrow_row, duckdb_row):
            print(json.dumps(row(path, broken, column, threshold)))


main()
