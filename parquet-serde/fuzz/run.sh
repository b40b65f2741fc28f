#!/usr/bin/env bash
# Runs every fuzz target with cargo-afl for N minutes each (default 5), one after the other,
# then replays each target's queue and crashes through the target (so a fix can be checked
# against everything found so far). Usage: fuzz/run.sh [MINUTES] [TARGET...]
#
# Needs `cargo install cargo-afl` (AFL++ is built on first use). Seeds: fuzz/seed.sh.
# Results: fuzz/out/<target>/default/{queue,crashes,hangs,fuzzer_stats} (gitignored).
# Minimised crashes worth keeping go to fuzz/corpus/<target>/, which the normal test suite
# replays (parquet-serde/tests/fuzz_corpus.rs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
minutes="${1:-5}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(footer page read_1 read_2 filter encrypted variant wkb typed)
cargo afl build --release
./seed.sh
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
for t in "${targets[@]}"; do
  bin="target/release/$t"
  # The coverage map the instrumented binary needs (AFL++ prints it when asked). Below the
  # binary's built-in 65536 entries the fuzzer's own detection is used: a smaller explicit
  # AFL_MAP_SIZE makes every input look like a crash.
  map=$(AFL_DUMP_MAP_SIZE=1 "$bin" 2>/dev/null || true)
  unset AFL_MAP_SIZE
  if [ -n "$map" ] && [ "$map" -gt 65536 ]; then export AFL_MAP_SIZE="$map"; fi
  # A fresh run each time (the previous one's queue is in the seeds through corpus/).
  rm -rf "out/$t"
  mkdir -p "out/$t"
  echo "== $t: $minutes min (AFL_MAP_SIZE=${AFL_MAP_SIZE:-default})"
  cargo afl fuzz -i "seeds/$t" -o "out/$t" -V $((minutes * 60)) -t 2000 -m none "$bin" \
    > "out/$t.log" 2>&1 || true
  stats="out/$t/default/fuzzer_stats"
  if [ -f "$stats" ]; then
    grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|saved_crashes|saved_hangs)' "$stats"
  fi
done
# Replay: every input found, through the (uninstrumented-behaviour) target binary.
for t in "${targets[@]}"; do
  bad=0
  for f in "out/$t"/default/{queue,crashes,hangs}/id:*; do
    [ -f "$f" ] || continue
    if ! timeout 10 "target/release/$t" < "$f" > /dev/null 2>&1; then
      echo "replay $t: $f fails"
      bad=$((bad + 1))
    fi
  done
  echo "replay $t: $bad failing inputs"
done
