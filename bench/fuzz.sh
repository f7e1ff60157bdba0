#!/bin/sh
# Runs the PNML reader's libFuzzer harness for SECONDS (default 60),
# seeded with the test fixtures and the small files of the corpus.
# Crashes land in tests/fuzz/crashes/; add each as a regression fixture.
#   make fuzz && sh bench/fuzz.sh 1800
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
corpus=${PN_CORPUS:-../shared/pnml-corpus}
[ -x tests/fuzz/fuzz-pnml ] || { echo "build it first: make fuzz" >&2; exit 2; }
work=fuzz-out
mkdir -p "$work/seeds" "$work/corpus" tests/fuzz/crashes
for f in tests/pnml/*/*/net.pnml tests/fuzz/regressions/*; do
    [ -f "$f" ] && cp "$f" "$work/seeds/$(echo "$f" | tr / _)"
done
if [ -d "$corpus" ]; then
    find "$corpus" -type f \( -name '*.pnml' -o -name '*.xml' -o -name '*.tapn' \) -size -200k |
        while read -r f; do cp "$f" "$work/seeds/$(basename "$f")"; done
fi
./tests/fuzz/fuzz-pnml -dict=tests/fuzz/pnml.dict -max_len=65536 \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=tests/fuzz/crashes/ -print_final_stats=1 \
    "$work/corpus" "$work/seeds" 2>&1 | tail -n 40
