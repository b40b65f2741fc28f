"""DuckDB's answers to many predicates on one table, for the differential test of predicates
(parquet-serde/tests/common/pred_diff.rs).

usage: pred_diff_duckdb.py JOB.json

JOB.json: {"file": PATH, "hive": DIR, "where": [SQL condition, ...], "hive_where": [SQL
condition, ...]} (as many of each). For each pair, in order, prints one JSON line
{"file": ids | {"error": msg}, "hive": ids | {"error": msg}}: the ids (ascending) of the rows
of read_parquet(PATH) where the first holds, and of
read_parquet('DIR/**/*.parquet', hive_partitioning = true) where the second holds (it may
test the partition key). The
session's TimeZone is UTC.
"""
import json
import sys

import duckdb


def answer(con, view, cond):
    try:
        rows = con.execute(f"SELECT id FROM {view} WHERE {cond} ORDER BY id").fetchall()
        return [r[0] for r in rows]
    except duckdb.Error as e:
        return {"error": str(e).splitlines()[0]}


def main():
    with open(sys.argv[1]) as f:
        job = json.load(f)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    path = job["file"].replace("'", "''")
    hive = job["hive"].replace("'", "''")
    # Tables, not views: the conditions are evaluated on the rows read, never pushed into
    # the Parquet scan. DuckDB 2.0's pushdown of `IN` on FLOAT16 columns drops matching rows
    # (`f16 IN (70.75, -164.0)` selects nothing where `f16 = 70.75` holds), and the oracle
    # must be its SQL, not its pruning.
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_parquet('{path}')")
    con.execute(
        f"CREATE TABLE h AS SELECT * FROM read_parquet('{hive}/**/*.parquet', hive_partitioning = true)"
    )
    out = sys.stdout
    for cond, hive_cond in zip(job["where"], job["hive_where"]):
        out.write(json.dumps({"file": answer(con, "t", cond), "hive": answer(con, "h", hive_cond)}))
        out.write("\n")


if __name__ == "__main__":
    main()
