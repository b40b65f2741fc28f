"""Reads a hive-partitioned dataset with a reference engine and prints its rows as JSON lines.

usage: dataset_with.py ENGINE DIR [WHERE]

ENGINE is `pyarrow` (pyarrow.dataset, hive partitioning) or `duckdb`
(read_parquet('DIR/**/*.parquet', hive_partitioning = true), with `date` typed DATE and
`hour` INTEGER: DuckDB's own inference keeps zero-padded hours as text). Rows are sorted by `ts`;
timestamps print as integer microseconds since the epoch, dates as YYYY-MM-DD, partition
values under their keys. WHERE (DuckDB only) is an SQL condition on the rows.
"""
import datetime
import json
import sys


def plain(v):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        delta = v - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    if isinstance(v, datetime.date):
        return v.isoformat()
    return v


def main():
    engine, root = sys.argv[1], sys.argv[2]
    where = sys.argv[3] if len(sys.argv) > 3 else None
    if engine == "pyarrow":
        import pyarrow.dataset as ds

        table = ds.dataset(root, format="parquet", partitioning="hive").to_table()
        rows = table.to_pylist()
    elif engine == "duckdb":
        import duckdb

        con = duckdb.connect()
        con.execute("SET TimeZone = 'UTC'")
        sql = f"SELECT * REPLACE (epoch_us(ts) AS ts) FROM read_parquet('{root}/**/*.parquet', hive_partitioning = true, "
        sql += "hive_types = {'date': DATE, 'hour': INTEGER})"
        if where:
            sql += f" WHERE {where}"
        cur = con.execute(sql)
        names = [d[0] for d in cur.description]
        rows = [dict(zip(names, r)) for r in cur.fetchall()]
    else:
        raise SystemExit(f"unknown engine {engine}")
    rows.sort(key=lambda r: plain(r["ts"]))
    for r in rows:
        print(json.dumps({k: plain(v) for k, v in r.items()}))


main()
