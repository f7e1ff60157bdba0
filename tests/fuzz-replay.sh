#!/bin/sh
# The fuzz harnesses (tests/fuzz/fuzz-*.c) without libFuzzer: each runs
# once on every seed bench/fuzz.sh gives it (the fixtures, the examples,
# tests/fuzz/seeds/, the regressions, small corpus files), built by the
# compiler at hand (tests/fuzz/replay.c), so that every finding ever kept
# stays fixed in make check and in CI's sanitizer build.  A harness aborts
# on a finding: the replay then dies of a signal.
. "${srcdir:-tests}/lib.sh"
for h in pnml trace workload dot expr profile query; do
    prog="$top_builddir/tests/fuzz/replay-$h"
    mkdir -p "$TMP/$h"
    if ! PN_CORPUS=${PN_CORPUS:-} sh "$srcdir/../bench/fuzz.sh" --seeds "$h" "$TMP/$h"; then
        bad "$h: no seeds"
        continue
    fi
    n=$(ls "$TMP/$h" | wc -l)
    [ "$n" -gt 0 ] && ok || bad "$h: an empty seed folder"
    expect 0 "$prog" "$TMP/$h"
    has "$TMP/out" "$n inputs run"
    sed 's/^/  /' "$TMP/out"
done
finish
