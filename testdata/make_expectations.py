#!/usr/bin/env python3
"""Writes testdata/expected/<file>.jsonl: what pyarrow reads from each file of the
parquet-testing corpus, one JSON object per row, in the JSON mapping of `parquet-serde cat`.

The mapping (the same one the CLI prints, so a test can compare the two line by line):
- integers and floats as JSON numbers; NaN and infinities as "NaN", "Infinity", "-Infinity";
  FLOAT values with the shortest decimal form that round-trips through f32;
- STRING / ENUM / JSON as strings; other BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY as base64;
- FLOAT16 as a number; DATE as "YYYY-MM-DD"; TIMESTAMP as RFC 3339 with the unit's digits and
  "Z" when adjusted to UTC; TIME as "HH:MM:SS" with the unit's digits; DECIMAL as a decimal
  string; UUID as the hyphenated string; INT96 as an RFC 3339 timestamp with nanoseconds and "Z";
- groups as objects, LIST (and bare repeated fields) as arrays, MAP as arrays of
  {"key": ..., "value": ...}; null as null.

Usage: make_expectations.py [CORPUS_DIR] [OUT_DIR]
CORPUS_DIR defaults to $PARQUET_TESTING, else testdata/parquet-testing (the vendored files the
suite reads); OUT_DIR to testdata/expected.
Files pyarrow cannot read are written as <file>.skip with pyarrow's message.
"""

import base64
import gzip
import decimal
import json
import math
import os
import struct
import sys
import uuid

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = (
    sys.argv[1]
    if len(sys.argv) > 1
    else os.environ.get("PARQUET_TESTING", os.path.join(HERE, "parquet-testing"))
)
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "expected")

UNIT_DIGITS = {"MILLIS": 3, "MICROS": 6, "NANOS": 9}
UNIT_PER_SECOND = {"MILLIS": 1000, "MICROS": 1000_000, "NANOS": 1000_000_000}
JULIAN_EPOCH_DAY = 2440588


def f32_shortest(v):
    """Shortest decimal that parses back to the same f32, as a Python float."""
    target = struct.pack("<f", v)
    for digits in range(1, 10):
        s = "%.*g" % (digits, v)
        if struct.pack("<f", float(s)) == target:
            return float(s)
    return v


def float_json(v, is_f32=False):
    if v is None:
        return None
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return f32_shortest(v) if is_f32 else float(v)


def civil_from_days(days):
    """Proleptic Gregorian date of a day number, any year: 4-digit years in 0..=9999, else
    a sign and at least 4 digits (ISO 8601 expanded years)."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = y + 1 if m <= 2 else y
    year = "%04d" % y if 0 <= y <= 9999 else ("+%04d" % y if y > 0 else "-%04d" % -y)
    return "%s-%02d-%02d" % (year, m, d)


def timestamp_text(value, unit, utc):
    per = UNIT_PER_SECOND[unit]
    secs, frac = divmod(value, per)
    days, sod = divmod(secs, 86400)
    date = civil_from_days(days)
    text = "%sT%02d:%02d:%02d.%0*d" % (date, sod // 3600, sod // 60 % 60, sod % 60, UNIT_DIGITS[unit], frac)
    return text + ("Z" if utc else "")


def time_text(value, unit):
    per = UNIT_PER_SECOND[unit]
    secs, frac = divmod(value, per)
    return "%02d:%02d:%02d.%0*d" % (secs // 3600, secs // 60 % 60, secs % 60, UNIT_DIGITS[unit], frac)


def decimal_text(unscaled, scale):
    neg = unscaled < 0
    digits = str(abs(unscaled))
    if scale > 0:
        digits = digits.rjust(scale + 1, "0")
        digits = digits[:-scale] + "." + digits[-scale:]
    elif scale < 0:
        digits = digits + "0" * (-scale)
    return ("-" if neg else "") + digits


class Leaf:
    """How to print the values of one Parquet leaf column."""

    def __init__(self, col):
        self.physical = col.physical_type
        lt = col.logical_type
        self.logical = lt.type if lt is not None else "NONE"
        self.lt_json = json.loads(lt.to_json()) if lt is not None and self.logical != "NONE" else {}
        self.converted = col.converted_type
        self.precision = col.precision
        self.scale = col.scale
        self.length = col.length


def leaf_value(v, arrow_type, leaf):
    """One non-null leaf value (already a Python object from the arrow array)."""
    lg, conv, phys = leaf.logical, leaf.converted, leaf.physical
    if phys == "INT96":
        # Read as int64 nanoseconds? pyarrow gives timestamps; the caller passes raw nanos.
        return timestamp_text(v, "NANOS", True)
    if lg == "DECIMAL" or conv == "DECIMAL":
        if isinstance(v, decimal.Decimal):
            return format(v, "f")
        return decimal_text(int(v), leaf.scale)
    if lg == "DATE" or conv == "DATE":
        return civil_from_days(v)
    if lg == "TIMESTAMP" or conv in ("TIMESTAMP_MILLIS", "TIMESTAMP_MICROS"):
        unit = leaf.lt_json.get("timeUnit", "milliseconds" if conv == "TIMESTAMP_MILLIS" else "microseconds")
        unit = {"milliseconds": "MILLIS", "microseconds": "MICROS", "nanoseconds": "NANOS"}[unit]
        utc = leaf.lt_json.get("isAdjustedToUTC", True)
        return timestamp_text(v // (10**9 // UNIT_PER_SECOND[unit]), unit, utc)
    if lg == "TIME" or conv in ("TIME_MILLIS", "TIME_MICROS"):
        unit = leaf.lt_json.get("timeUnit", "milliseconds" if conv == "TIME_MILLIS" else "microseconds")
        unit = {"milliseconds": "MILLIS", "microseconds": "MICROS", "nanoseconds": "NANOS"}[unit]
        return time_text(v // (10**9 // UNIT_PER_SECOND[unit]), unit)
    if lg == "UUID":
        # pyarrow gives the 16 bytes, DuckDB the text form.
        return str(uuid.UUID(v) if isinstance(v, str) else uuid.UUID(bytes=bytes(v)))
    if lg == "FLOAT16":
        return float_json(v)
    if phys in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        raw = v.encode("utf-8") if isinstance(v, str) else bytes(v)
        if lg in ("STRING", "ENUM", "JSON") or conv in ("UTF8", "ENUM", "JSON"):
            return raw.decode("utf-8", errors="replace")
        return base64.b64encode(raw).decode("ascii")
    if phys == "FLOAT":
        return float_json(v, is_f32=True)
    if phys == "DOUBLE":
        return float_json(v)
    if phys == "BOOLEAN":
        return bool(v)
    return int(v)


def leaf_raw_values(arr, leaf):
    """Python values of an arrow array of leaf values, in the physical domain where needed."""
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    if leaf.physical == "INT96" and pa.types.is_decimal(t):
        return [None if v is None else int(v) for v in arr.to_pylist()]
    if leaf.physical == "INT96" and pa.types.is_timestamp(t):
        # As nanoseconds, whatever unit the engine returned (DuckDB gives microseconds).
        scale = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[t.unit]
        return [None if v is None else v * scale for v in arr.view(pa.int64()).to_pylist()]
    if pa.types.is_timestamp(t) or pa.types.is_time(t):
        # As nanoseconds, whatever unit the engine returned (DuckDB's TIME is microseconds).
        width = pa.int32() if pa.types.is_time32(t) else pa.int64()
        scale = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[t.unit]
        return [None if v is None else v * scale for v in arr.view(width).to_pylist()]
    if pa.types.is_date32(t):
        return arr.view(pa.int32()).to_pylist()
    if pa.types.is_date64(t):
        return [None if v is None else v // 86_400_000 for v in arr.cast(pa.int64()).to_pylist()]
    if pa.types.is_decimal(t):
        return arr.to_pylist()
    if pa.types.is_float16(t):
        return arr.cast(pa.float32()).to_pylist()
    if isinstance(t, pa.BaseExtensionType):
        return arr.storage.to_pylist()
    return arr.to_pylist()


def convert(arr, leaves, cursor):
    """JSON values of an arrow array; `cursor` is a one-element list holding the index of the
    next Parquet leaf: arrow and Parquet list their leaves in the same depth-first order."""
    t = arr.type
    if isinstance(t, pa.BaseExtensionType) and not pa.types.is_fixed_size_binary(t.storage_type):
        arr = arr.storage
        t = arr.type
    valid = arr.is_valid().to_pylist()
    if pa.types.is_struct(t):
        names = [t.field(i).name for i in range(t.num_fields)]
        children = [convert(arr.field(i), leaves, cursor) for i in range(t.num_fields)]
        return [
            ({n: c[row] for n, c in zip(names, children)} if valid[row] else None) for row in range(len(arr))
        ]
    if pa.types.is_map(t):
        base = arr.offsets.to_pylist()
        first = base[0] if base else 0
        keys = convert(arr.keys, leaves, cursor)
        items = convert(arr.items, leaves, cursor)
        return [
            ([{"key": keys[j - first], "value": items[j - first]} for j in range(base[r], base[r + 1])]
             if valid[r] else None)
            for r in range(len(arr))
        ]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        base = arr.offsets.to_pylist()
        first = base[0] if base else 0
        values = convert(arr.values, leaves, cursor)
        return [(values[base[r] - first:base[r + 1] - first] if valid[r] else None) for r in range(len(arr))]
    if pa.types.is_fixed_size_list(t):
        n = t.list_size
        values = convert(arr.values, leaves, cursor)
        return [(values[r * n:(r + 1) * n] if valid[r] else None) for r in range(len(arr))]
    leaf = leaves[cursor[0]]
    cursor[0] += 1
    raw = leaf_raw_values(arr, leaf)
    return [None if v is None else leaf_value(v, t, leaf) for v in raw]


def count_leaves(t):
    if isinstance(t, pa.BaseExtensionType) and not pa.types.is_fixed_size_binary(t.storage_type):
        t = t.storage_type
    if pa.types.is_struct(t):
        return sum(count_leaves(t.field(i).type) for i in range(t.num_fields))
    if pa.types.is_map(t):
        return count_leaves(t.key_type) + count_leaves(t.item_type)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return count_leaves(t.value_type)
    return 1


def merge_int96(ns_table, ms_table):
    """INT96 columns as exact nanoseconds in decimal128 columns. Nanoseconds outside
    1677..2262 wrap around 2^64 when pyarrow converts; the same column read in
    milliseconds (which does not overflow) tells how many times, so the exact value is
    recovered: ns + k * 2^64 with k chosen to agree with the millisecond value."""
    cols = []
    for i, name in enumerate(ns_table.column_names):
        col = ns_table.column(i)
        if pa.types.is_timestamp(col.type) and col.type.unit == "ns" and col.num_chunks:
            ns = pa.concat_arrays([c.view(pa.int64()) for c in col.chunks]).to_pylist()
            ms = pa.concat_arrays([c.view(pa.int64()) for c in ms_table.column(i).chunks]).to_pylist()
            fixed = []
            for a, b in zip(ns, ms):
                if a is None:
                    fixed.append(None)
                    continue
                k = round((b * 1_000_000 - a) / 2**64)
                exact = a + k * 2**64
                fixed.append(exact if exact // 1_000_000 == b else b * 1_000_000)
            cols.append(pa.array(fixed, pa.decimal128(38, 0)))
        else:
            cols.append(col)
    return pa.table(cols, names=ns_table.column_names)


def rows_of_table(table, leaves):
    """JSON rows of an arrow table whose Parquet leaves (in order) are `leaves`."""
    columns = {}
    first_leaf = 0
    for name in table.column_names:
        chunked = table.column(name)
        values = []
        for chunk in chunked.chunks:
            values.extend(convert(chunk, leaves, [first_leaf]))
        first_leaf += count_leaves(chunked.type)
        columns[name] = values
    names = table.column_names
    return [{n: columns[n][r] for n in names} for r in range(table.num_rows)]


def rows_of(path):
    pf = pq.ParquetFile(path, coerce_int96_timestamp_unit="ns")
    leaves = [Leaf(pf.schema.column(i)) for i in range(pf.metadata.num_columns)]
    table = pf.read()
    if any(leaf.physical == "INT96" for leaf in leaves):
        table = merge_int96(table, pq.ParquetFile(path, coerce_int96_timestamp_unit="ms").read())
    return rows_of_table(table, leaves)


def main():
    os.makedirs(OUT, exist_ok=True)
    data = os.path.join(CORPUS, "data")
    for name in sorted(os.listdir(data)):
        if not name.endswith(".parquet"):
            continue
        src = os.path.join(data, name)
        for old in (name + ".jsonl", name + ".jsonl.gz", name + ".skip"):
            if os.path.exists(os.path.join(OUT, old)):
                os.remove(os.path.join(OUT, old))
        try:
            rows = rows_of(src)
        except Exception as e:  # pyarrow cannot read it: record why
            with open(os.path.join(OUT, name + ".skip"), "w") as f:
                f.write("pyarrow %s: %s: %s\n" % (pa.__version__, type(e).__name__, e))
            print("skip", name, e)
            continue
        text = "".join(
            json.dumps(row, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n" for row in rows
        ).encode("utf-8")
        if len(text) > 100_000:  # large expectations are stored gzipped
            with open(os.path.join(OUT, name + ".jsonl.gz"), "wb") as f:
                f.write(gzip.compress(text, compresslevel=9, mtime=0))
        else:
            with open(os.path.join(OUT, name + ".jsonl"), "wb") as f:
                f.write(text)
        print("ok", name, len(rows))


if __name__ == "__main__":
    main()
