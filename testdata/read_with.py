#!/usr/bin/env python3
"""Prints the rows of Parquet files as JSON lines in the `parquet-serde cat` mapping, read
by another engine: `read_with.py pyarrow|duckdb FILE...`. Each file's rows are preceded by a
line `== FILE` (or `== FILE ERROR message` when the engine fails)."""

import json
import sys

import pyarrow.parquet as pq

from make_expectations import rows_of_table, Leaf


def read_pyarrow(path):
    pf = pq.ParquetFile(path, coerce_int96_timestamp_unit="ns")
    return pf.read(), pf


def read_duckdb(path):
    import duckdb

    con = duckdb.connect()
    table = con.sql("SELECT * FROM read_parquet('%s')" % path.replace("'", "''")).to_arrow_table()
    return table, pq.ParquetFile(path)


def main():
    engine = sys.argv[1]
    read = {"pyarrow": read_pyarrow, "duckdb": read_duckdb}[engine]
    for path in sys.argv[2:]:
        try:
            table, pf = read(path)
            leaves = [Leaf(pf.schema.column(i)) for i in range(pf.metadata.num_columns)]
            rows = rows_of_table(table, leaves)
        except Exception as e:  # report and go on with the next file
            print("== %s ERROR %s: %s" % (path, type(e).__name__, str(e).replace("\n", " ")))
            continue
        print("== %s" % path)
        for row in rows:
            print(json.dumps(row, ensure_ascii=False, allow_nan=False, separators=(",", ":")))


if __name__ == "__main__":
    main()
