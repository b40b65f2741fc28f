#!/usr/bin/env python3
"""Statistics, page index and Bloom filters as other engines see them, printed as JSON lines.

  stats_with.py pyarrow FILE...            one object per column chunk: pyarrow's statistics
  stats_with.py duckdb FILE...             one object per column chunk: DuckDB's parquet_metadata
  stats_with.py pages FILE COLUMN RANGES   min/max/null count of the rows pyarrow reads in each
                                           [start, end) of RANGES (JSON list of pairs)
  stats_with.py rewrite IN OUT ROWS        pyarrow writes the rows of IN to OUT (ROWS per row group;
                                           INT96 timestamps become INT64)
  stats_with.py bloom FILE COLUMN VALUE... DuckDB parquet_bloom_probe for each VALUE (JSON literals)

Values are normalized the way tests/stats_interop.rs prints its own: integers (unsigned and
DECIMAL unscaled values included) as decimal strings, floating point numbers (FLOAT16 included)
as JSON numbers or "NaN"/"Infinity"/"-Infinity", booleans as booleans, byte strings as
{"hex": ...}."""

import json
import math
import struct
import sys

import pyarrow.compute as pc
import pyarrow.parquet as pq


def norm_float(f):
    if f is None:
        return None
    f = float(f)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def norm_raw(v, physical, logical, converted):
    """A statistics value from pyarrow's min_raw/max_raw."""
    if v is None:
        return None
    if physical == "BOOLEAN":
        return bool(v)
    if physical in ("INT32", "INT64"):
        v = int(v)
        bits = 32 if physical == "INT32" else 64
        if "isSigned=false" in logical or converted.startswith("UINT"):
            v &= (1 << bits) - 1
        return str(v)
    if physical in ("FLOAT", "DOUBLE"):
        return norm_float(v)
    if physical in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        b = bytes(v)
        if logical == "Float16":
            return norm_float(struct.unpack("<e", b)[0])
        if logical.startswith("Decimal") or converted == "DECIMAL":
            return str(int.from_bytes(b, "big", signed=True))
        return {"hex": b.hex()}
    return None


def cmd_pyarrow(paths):
    for path in paths:
        try:
            md = pq.ParquetFile(path).metadata
        except Exception:  # pyarrow refuses the file: nothing to compare with
            continue
        for rg in range(md.num_row_groups):
            for c in range(md.num_columns):
                col = md.row_group(rg).column(c)
                s = col.statistics if col.is_stats_set else None
                out = {
                    "file": path,
                    "rg": rg,
                    "col": c,
                    "path": col.path_in_schema,
                    "has_min_max": bool(s is not None and s.has_min_max),
                    "null_count": s.null_count if s is not None and s.has_null_count else None,
                    "has_column_index": col.has_column_index,
                    "has_offset_index": col.has_offset_index,
                    "bloom_filter_offset": col.bloom_filter_offset,
                }
                if out["has_min_max"]:
                    args = (s.physical_type, str(s.logical_type), str(s.converted_type))
                    out["min"] = norm_raw(s.min_raw, *args)
                    out["max"] = norm_raw(s.max_raw, *args)
                print(json.dumps(out))


def cmd_duckdb(paths):
    import duckdb

    con = duckdb.connect()
    for path in paths:
        q = "SELECT * FROM parquet_metadata('%s')" % path.replace("'", "''")
        r = con.sql(q)
        cols = r.columns
        for row in r.fetchall():
            d = dict(zip(cols, row))
            print(json.dumps(d, default=str))


def norm_value(v, typ):
    import pyarrow as pa

    if v is None:
        return None
    if pa.types.is_boolean(typ):
        return bool(v)
    if pa.types.is_integer(typ):
        return str(int(v))
    if pa.types.is_floating(typ):
        return norm_float(v)
    if pa.types.is_decimal(typ):
        return str(int(v.scaleb(typ.scale)))
    if pa.types.is_string(typ) or pa.types.is_large_string(typ):
        return {"hex": v.encode("utf-8").hex()}
    if pa.types.is_binary(typ) or pa.types.is_fixed_size_binary(typ) or pa.types.is_large_binary(typ):
        return {"hex": bytes(v).hex()}
    if pa.types.is_date32(typ):
        return str((v - __import__("datetime").date(1970, 1, 1)).days)
    return str(v)


def cmd_pages(path, column, ranges):
    t = pq.read_table(path, columns=[column])
    arr = t.column(0)
    typ = arr.type
    for start, end in json.loads(ranges):
        sl = arr.slice(start, end - start)
        mm = pc.min_max(sl)
        lo = mm["min"].as_py()
        hi = mm["max"].as_py()
        print(json.dumps({
            "rows": [start, end],
            "null_count": sl.null_count,
            "min": norm_value(lo, typ),
            "max": norm_value(hi, typ),
        }))


def cmd_rewrite(src, dst, rows):
    t = pq.read_table(src)
    pq.write_table(
        t,
        dst,
        row_group_size=int(rows),
        write_page_index=True,
        compression="snappy",
    )


def cmd_bloom(path, column, values):
    import duckdb

    con = duckdb.connect()
    for v in values:
        lit = json.loads(v)
        r = con.execute(
            "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(?, ?, ?)",
            [path, column, lit],
        ).fetchall()
        print(json.dumps({"value": lit, "excludes": [bool(x[1]) for x in sorted(r)]}))


def main():
    cmd = sys.argv[1]
    if cmd == "pyarrow":
        cmd_pyarrow(sys.argv[2:])
    elif cmd == "duckdb":
        cmd_duckdb(sys.argv[2:])
    elif cmd == "pages":
        cmd_pages(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "rewrite":
        cmd_rewrite(sys.argv[2], sys.argv[3], sys.argv[4])
    elif cmd == "bloom":
        cmd_bloom(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
