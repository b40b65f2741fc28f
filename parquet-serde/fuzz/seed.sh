#!/usr/bin/env bash
# Copies the seed inputs of every fuzz target into fuzz/seeds/<target>/ (gitignored): the
# small files of testdata/parquet-testing (or $PARQUET_TESTING), their footers alone, files
# the library writes (write_seeds), and the checked-in corpus (fuzz/corpus/<target>/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
testing="${PARQUET_TESTING:-$here/../../testdata/parquet-testing}"
seeds="$here/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{footer,page,read_1,read_2,filter,encrypted,variant,wkb,typed} "$seeds/lib"
# Files the library writes: small corpus files rewritten by the command-line tool with other
# codecs, page versions, encodings, page index and Bloom filters, and one encrypted with the
# keys of the encrypted target ($PARQUET_SERDE_CLI, else the workspace's debug build).
cli="${PARQUET_SERDE_CLI:-$here/../../target/debug/parquet-serde}"
i=0
for f in alltypes_plain.parquet nested_lists.snappy.parquet nested_maps.snappy.parquet \
         nullable.impala.parquet datapage_v2.snappy.parquet; do
  [ -f "$testing/data/$f" ] || continue
  "$cli" rewrite "$testing/data/$f" "$seeds/lib/lib_${i}_zstd_v2.parquet" \
    --compression zstd --page-version 2 || true
  "$cli" rewrite "$testing/data/$f" "$seeds/lib/lib_${i}_plain.parquet" \
    --encoding PLAIN --compression uncompressed || true
  "$cli" rewrite "$testing/data/$f" "$seeds/lib/lib_${i}_delta.parquet" \
    --encoding AUTO --compression lz4_raw --row-group-rows 3 || true
  i=$((i + 1))
done
"$cli" rewrite "$testing/data/alltypes_plain.parquet" \
  "$seeds/lib/lib_encrypted.parquet.encrypted" \
  --footer-key 30313233343536373839303132333435 || true
small() { find "$@" -maxdepth 1 -type f -size -64k 2>/dev/null; }
for f in $(small "$testing/data" "$testing/bad_data") "$seeds"/lib/*.parquet; do
  case "$f" in *.encrypted) continue ;; esac
  for t in read_1 read_2 filter footer; do cp "$f" "$seeds/$t/"; done
  # The footer alone: its length is the little-endian u32 before the closing magic.
  size=$(stat -c %s "$f")
  if [ "$size" -gt 12 ]; then
    len=$(tail -c 8 "$f" | head -c 4 | od -An -tu4 | tr -d ' ')
    if [ "$len" -gt 0 ] && [ "$len" -le $((size - 12)) ]; then
      tail -c $((len + 8)) "$f" | head -c "$len" > "$seeds/footer/$(basename "$f").thrift"
    fi
  fi
done
for f in "$testing"/data/*.parquet.encrypted "$seeds"/lib/*.encrypted; do
  [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 65536 ] && cp "$f" "$seeds/encrypted/"
done
# Variant seeds: the shredded_variant corpus's expected values (metadata then value bytes).
for f in "$testing"/shredded_variant/*.variant.bin; do
  [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 4096 ] && cp "$f" "$seeds/variant/"
done
# Page seeds: selector bytes + a body, for a few (type, encoding, levels) choices.
i=0
for sel in 0 1 2 4 5 6 7 9 17 25 33 38 46 54 62 65; do
  for shape in 0 1 4 64 128 129; do
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' "$sel" 16 "$shape" 8)" > "$seeds/page/s$i"
    # A body: 48 bytes of a library file (levels, values and headers of real pages).
    tail -c +$((i * 13 + 5)) "$seeds/lib/lib_0_plain.parquet" | head -c 48 >> "$seeds/page/s$i"
    i=$((i + 1))
  done
done
# Typed seeds: the typed target's own rows, written by the library with several options
# (the target binary writes them; `cargo afl build` made it).
typed_bin="$here/target/release/typed"
[ -x "$typed_bin" ] && "$typed_bin" --seeds "$seeds/typed"
for t in footer page read_1 read_2 filter encrypted variant wkb typed; do
  [ -d "$here/corpus/$t" ] && cp "$here/corpus/$t"/* "$seeds/$t/" 2>/dev/null || true
done
rm -rf "$seeds/lib"
for t in footer page read_1 read_2 filter encrypted variant wkb typed; do
  echo "seeds/$t: $(ls "$seeds/$t" | wc -l) files"
done
