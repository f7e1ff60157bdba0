#!/bin/sh
# Runs the libFuzzer harnesses of the readers of untrusted input for
# SECONDS each (default 60):
#   pnml      the PNML reader, from memory, a file or a pipe (the default)
#   trace     the trace reader (pn-run --trace, pn-dot --trace), against a
#             fixed small net
#   workload  the GPU generator's workload reader (pn-gen-gpu --workload)
#   dot       the kernel-graph reader (Graphviz DOT, pn-maxplus)
#   expr      the max-plus time expressions and bindings (--set)
#   profile   the profile and device readers of gpu/ (nvprof and Nsight
#             Compute CSV, deviceInfo.csv)
#   all       each of them in turn (6 x SECONDS)
# Seeds: the test fixtures, the examples, tests/fuzz/seeds/HARNESS/, the
# regressions, and for pnml the small files of the corpus.  The corpus
# each run grows is kept in fuzz-out/HARNESS/corpus for the next run.
# Crashes land in tests/fuzz/crashes/HARNESS-*; add each, minimised
# (-minimize_crash=1), to tests/fuzz/regressions/ (pnml) or
# tests/fuzz/regressions/HARNESS/.  Runs at a low priority (nice).
#   make fuzz && sh bench/fuzz.sh 1800 trace
set -eu
seeds_only=
if [ "${1:-}" = --seeds ]; then
    [ $# -eq 3 ] || { echo "usage: sh bench/fuzz.sh --seeds HARNESS DIR" >&2; exit 2; }
    seeds_only=1 which=$2 seeds=$(cd "$3" && pwd) secs=0
fi
# the corpus: PN_CORPUS (from where this was started), else beside the
# source tree
corpus=
[ -n "${PN_CORPUS:-}" ] && corpus=$(cd "$PN_CORPUS" 2>/dev/null && pwd || echo "$PN_CORPUS")
cd "$(dirname "$0")/.."
[ -n "$corpus" ] || corpus=../shared/pnml-corpus
if [ -z "$seeds_only" ]; then
    secs=${1:-60}
    which=${2:-pnml}
fi
case $which in
pnml|trace|workload|dot|expr|profile|query) harnesses=$which ;;
all) harnesses="pnml trace workload dot expr profile query" ;;
*) echo "usage: sh bench/fuzz.sh [SECONDS [pnml|trace|workload|dot|expr|profile|query|all]]" >&2
   exit 2 ;;
esac
for h in $harnesses; do
    [ "$seeds_only" ] || [ -x "tests/fuzz/fuzz-$h" ] ||
        { echo "build it first: make fuzz" >&2; exit 2; }
done

# seed FILE...: copies the files that exist into the seeds folder
seed() {
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
    done
    return 0
}

# make_seeds HARNESS: fills $seeds with its seeds; sets maxlen, the
# longest input worth trying
make_seeds() {
    h=$1
    maxlen=16384
    case $h in
    pnml)
        maxlen=65536
        seed tests/pnml/*/*/net.pnml tests/fuzz/regressions/*
        # the fixtures again, read as a file (0x01) and through a pipe
        # (0x02, then the seed of the block sizes)
        for f in tests/pnml/*/*/net.pnml; do
            n=$(echo "$f" | tr / _)
            { printf '\001'; cat "$f"; } > "$seeds/file-$n"
            { printf '\002\047'; cat "$f"; } > "$seeds/pipe-$n"
        done
        if [ -d "$corpus" ]; then
            find "$corpus" -type f \( -name '*.pnml' -o -name '*.xml' \
                -o -name '*.tapn' \) -size -200k |
                while read -r f; do cp "$f" "$seeds/$(basename "$f")"; done
        fi ;;
    trace)
        seed tests/fuzz/seeds/trace/* tests/fuzz/regressions/trace/* ;;
    workload)
        seed share/examples/*.csv tests/fuzz/seeds/workload/* \
            tests/fuzz/regressions/workload/* ;;
    dot)
        seed share/examples/*.dot tests/fuzz/seeds/dot/* \
            tests/fuzz/regressions/dot/* ;;
    expr)
        maxlen=4096
        seed tests/fuzz/seeds/expr/* tests/fuzz/regressions/expr/* ;;
    query)
        maxlen=16384
        # an inline query, a newline, a property file
        for f in tests/fuzz/seeds/query/* tests/fuzz/regressions/query/*; do
            [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
        done
        for f in "$corpus"/../mcc-oracle/*/ReachabilityCardinality.xml \
                 "$corpus"/../mcc-oracle/*/UpperBounds.xml \
                 "$corpus"/../mcc-oracle/*/LTLCardinality.xml; do
            [ -f "$f" ] || continue
            { echo 'EF p1 >= 1'; sed 's/<place>[^<]*</<place>p1</g; s/<transition>[^<]*</<transition>t1</g' "$f"; } \
                > "$seeds/$(echo "$f" | tr / _)"
        done ;;
    profile)
        maxlen=65536
        # the first byte picks the reader: 0 a profile, 1 a device file
        for f in tests/data/gpu/*.csv tests/data/gpu/bad/*.csv \
                 tests/fuzz/seeds/profile/* tests/fuzz/regressions/profile/*; do
            [ -f "$f" ] || continue
            case $f in *deviceInfo*|*devices*) b='\001' ;; *) b='\000' ;; esac
            { printf "$b"; cat "$f"; } > "$seeds/$(echo "$f" | tr / _)"
        done ;;
    esac
}

# --seeds HARNESS DIR: only writes the harness's seeds into DIR (for the
# replay of make check, tests/fuzz-replay.sh)
if [ "$seeds_only" ]; then
    make_seeds "$which"
    exit 0
fi

mkdir -p tests/fuzz/crashes
for h in $harnesses; do
    work=fuzz-out/$h
    seeds=$work/seeds
    rm -rf "$seeds"
    mkdir -p "$seeds" "$work/corpus"
    lsan=${LSAN_OPTIONS:-}
    ubsan=${UBSAN_OPTIONS:-}
    make_seeds "$h"
    echo "== $h: $secs s"
    LSAN_OPTIONS=$lsan UBSAN_OPTIONS=$ubsan nice -n 10 \
        "./tests/fuzz/fuzz-$h" -dict="tests/fuzz/$h.dict" \
        -max_len="$maxlen" -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="tests/fuzz/crashes/$h-" \
        -print_final_stats=1 "$work/corpus" "$seeds" 2>&1 | tail -n 40
done
