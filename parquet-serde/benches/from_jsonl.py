#!/usr/bin/env python3
"""`parquet-serde from-jsonl` against DuckDB's
`COPY (SELECT * FROM read_json_auto(..)) TO '...parquet'` on the same JSON lines file of
nested log events, one thread each (`--threads 1`; `SET threads=1`), Snappy both.

    cargo build --release -p parquet-serde --features cli
    python3 parquet-serde/benches/from_jsonl.py [--rows 500000] [--runs 3] [--binary PATH]

Needs a Python with duckdb (the project's .venv). Prints the best wall time of each over
`--runs` runs, its throughput and the output sizes. The input is generated (seeded) into a
temporary directory: an ISO timestamp, level, message, a number that is an integer or a
fraction, a nullable user id, a nested http object, a list of tags, an error object on some
lines and a key missing from others.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def generate(path, rows):
    rng = random.Random(7)
    levels = ["INFO", "WARN", "ERROR", "DEBUG"]
    paths = ["/api/users", "/api/orders", "/health", "/login", "/static/app.js"]
    with open(path, "w") as out:
        for i in range(rows):
            e = {
                "ts": "2026-11-24T%02d:%02d:%02d.%03dZ" % ((i // 3600) % 24, (i // 60) % 60, i % 60, i % 1000),
                "level": rng.choice(levels),
                "message": "request %d handled in %.3f ms" % (i, rng.random() * 100),
                "service": rng.choice(["api", "auth", "web"]),
                "latency_ms": rng.randint(0, 5000) if i % 7 else rng.random() * 5000,
                "user_id": rng.randint(1, 10**6) if i % 5 else None,
                "http": {"method": rng.choice(["GET", "POST"]), "path": rng.choice(paths),
                         "status": rng.choice([200, 200, 200, 404, 500])},
                "tags": rng.sample(["a", "b", "c", "d", "e"], rng.randint(0, 3)),
            }
            if i % 11 == 0:
                del e["service"]
            if i % 13 == 0:
                e["error"] = {"code": rng.randint(1, 99), "detail": "boom"}
            out.write(json.dumps(e) + "\n")


def best(runs, f):
    """The best wall time and the best CPU time (user + system: this process's for DuckDB,
    which runs in it, the child's for parquet-serde) of `runs` calls of `f`. On a machine
    shared with other work the CPU time is the steadier figure."""
    import resource

    def cpu():
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    walls, cpus = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), cpu()
        f()
        walls.append(time.perf_counter() - t)
        cpus.append(cpu() - c)
    return min(walls), min(cpus)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_binary = os.path.join(here, "..", "..", "target", "release", "parquet-serde")
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--binary", default=default_binary)
    args = ap.parse_args()
    import duckdb

    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "logs.jsonl")
        generate(src, args.rows)
        size = os.path.getsize(src)
        ours = os.path.join(d, "ours.parquet")
        theirs = os.path.join(d, "duckdb.parquet")

        def run_ours():
            subprocess.run([args.binary, "from-jsonl", src, ours, "--threads", "1"], check=True)

        def run_ours_ts():
            subprocess.run([args.binary, "from-jsonl", src, ours, "--threads", "1", "--timestamps"],
                           check=True)

        def run_duckdb():
            con = duckdb.connect()
            con.execute("SET threads=1")
            con.execute("COPY (SELECT * FROM read_json_auto('%s')) TO '%s' (FORMAT parquet, COMPRESSION snappy)"
                        % (src, theirs))
            con.close()

        (t_ours, c_ours) = best(args.runs, run_ours)
        (t_ours_ts, c_ours_ts) = best(args.runs, run_ours_ts)
        (t_duck, c_duck) = best(args.runs, run_duckdb)
        mb = size / 1e6
        print("input: %d lines, %.1f MB" % (args.rows, mb))
        print("parquet-serde from-jsonl --threads 1: wall %.3f s (%.0f MB/s), cpu %.3f s, output %.1f MB"
              % (t_ours, mb / t_ours, c_ours, os.path.getsize(ours) / 1e6))
        print("parquet-serde from-jsonl --threads 1 --timestamps (ts as TIMESTAMP, as DuckDB "
              "detects it): wall %.3f s, cpu %.3f s" % (t_ours_ts, c_ours_ts))
        print("duckdb COPY read_json_auto, threads=1: wall %.3f s (%.0f MB/s), cpu %.3f s, output %.1f MB"
              % (t_duck, mb / t_duck, c_duck, os.path.getsize(theirs) / 1e6))
        print("duckdb / parquet-serde: wall %.2f, cpu %.2f (with --timestamps: wall %.2f, cpu %.2f)"
              % (t_duck / t_ours, c_duck / c_ours, t_duck / t_ours_ts, c_duck / c_ours_ts))


if __name__ == "__main__":
    sys.exit(main())
