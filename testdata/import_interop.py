#!/usr/bin/env python3
"""Compares a JSON lines or CSV file, read by pyarrow or DuckDB, with the Parquet file
parquet-serde made of it, read by the same engine:
`import_interop.py pyarrow|duckdb json|csv INPUT OUTPUT.parquet`.

Prints `ok ROWS` when every row is equal, else `diff` and the first differing rows. Values
are compared after normalizing what the engines type differently from each other but not
in value: timestamps as UTC microseconds, rows as dicts (field order aside)."""

import datetime
import json
import sys


def norm(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        delta = v - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return {"$ts_us": delta // datetime.timedelta(microseconds=1)}
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return float(v)
    return v


def read_pyarrow(kind, path):
    import pyarrow.parquet as pq

    if kind == "parquet":
        return pq.read_table(path).to_pylist()
    if kind == "json":
        import pyarrow.json as pj

        return pj.read_json(path).to_pylist()
    import pyarrow.csv as pc

    options = pc.ConvertOptions(strings_can_be_null=True, true_values=["true", "TRUE", "True"],
                                false_values=["false", "FALSE", "False"])
    return pc.read_csv(path, convert_options=options).to_pylist()


def read_duckdb(kind, path):
    import duckdb

    con = duckdb.connect()
    quoted = path.replace("'", "''")
    query = {
        "parquet": "SELECT * FROM read_parquet('%s')",
        "json": "SELECT * FROM read_json_auto('%s')",
        "csv": "SELECT * FROM read_csv_auto('%s')",
    }[kind] % quoted
    return con.sql(query).to_arrow_table().to_pylist()


def main():
    engine, kind, source, ours = sys.argv[1:5]
    read = {"pyarrow": read_pyarrow, "duckdb": read_duckdb}[engine]
    want = [norm(r) for r in read(kind, source)]
    got = [norm(r) for r in read("parquet", ours)]
    if want == got:
        print("ok %d" % len(got))
        return
    print("diff %d rows against %d" % (len(got), len(want)))
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            print("row %d\n  %s: %s\n  ours: %s" % (i, engine, json.dumps(w, sort_keys=True), json.dumps(g, sort_keys=True)))
            break


if __name__ == "__main__":
    main()
