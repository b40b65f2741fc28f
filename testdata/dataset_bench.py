"""DuckDB: "errors per target in one hour" over a Parquet dataset and over the same rows as
JSON lines, both in hive folders date=YYYY-MM-DD/hour=HH. Prints the best of 5 runs of
each query, in milliseconds, and checks both give the same answer.

usage: dataset_bench.py PARQUET_DIR JSON_DIR
"""
import sys
import time

import duckdb


def best(con, sql, runs=5):
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = con.execute(sql).fetchall()
        times.append(time.perf_counter() - t)
    return min(times) * 1000, sorted(result)


def main():
    pq, js = sys.argv[1], sys.argv[2]
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    hive = "hive_partitioning = true, hive_types = {'date': DATE, 'hour': INTEGER}"
    src_pq = f"read_parquet('{pq}/**/*.parquet', {hive})"
    src_js = (
        f"read_ndjson('{js}/**/*.jsonl', {hive}, columns = {{'timestamp': 'TIMESTAMPTZ', "
        "'level': 'VARCHAR', 'target': 'VARCHAR', 'message': 'VARCHAR', "
        "'module_path': 'VARCHAR', 'line': 'INTEGER', 'thread_id': 'BIGINT', "
        "'latency_ms': 'DOUBLE'})"
    )
    queries = {
        "by partition (date = '2026-11-24' and hour = 13)": (
            "SELECT target, count(*) FROM {src} WHERE level = 'ERROR' "
            "AND date = DATE '2026-11-24' AND hour = 13 GROUP BY target"
        ),
        "by time range (ts in [13:00, 14:00))": (
            "SELECT target, count(*) FROM {src} WHERE level = 'ERROR' "
            "AND {ts} >= TIMESTAMPTZ '2026-11-24 13:00:00+00' "
            "AND {ts} < TIMESTAMPTZ '2026-11-24 14:00:00+00' GROUP BY target"
        ),
    }
    for name, q in queries.items():
        t_pq, r_pq = best(con, q.format(src=src_pq, ts="ts"))
        t_js, r_js = best(con, q.format(src=src_js, ts="timestamp"))
        assert r_pq == r_js, (name, r_pq, r_js)
        print(
            f"{name}: parquet {t_pq:.1f} ms, json lines {t_js:.1f} ms, "
            f"{t_js / t_pq:.1f}x; {sum(c for _, c in r_pq)} errors in {len(r_pq)} targets"
        )


main()
