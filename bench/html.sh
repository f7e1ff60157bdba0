#!/bin/sh
# pn-dot --html at scale: a 64-warp GPU net (drawn at its positions) with a
# 10,000-step run.  Prints the page's size and, in headless Chromium, the
# times the page measures itself (#bench): the page shown after opening,
# its script's decoding and drawing, 50 random seeks and 200 single steps
# (each with the browser's style and layout of the change).
#   sh bench/html.sh [BUILDDIR]        (make bench-html)
set -eu
bin=${1:-.}/bin
browser=${CHROMIUM:-chromium}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pn-bench-html.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$bin/pn-gen-gpu" --warps 64 --arith 200 --shared 60 --global 60 -o "$tmp/net.pnml"
"$bin/pn-run" --seed 1 --steps 10000 --trace "$tmp/run.trace" "$tmp/net.pnml" > /dev/null
start=$(date +%s.%N)
"$bin/pn-dot" --positions --html "$tmp/run.html" --trace "$tmp/run.trace" "$tmp/net.pnml"
end=$(date +%s.%N)
echo "64 warps, 10000 steps: trace $(wc -c < "$tmp/run.trace") bytes," \
     "page $(wc -c < "$tmp/run.html") bytes, written in" \
     "$(awk "BEGIN {print $end - $start}") s"
if ! command -v "$browser" > /dev/null 2>&1; then
    echo "no $browser: the page's times are not measured"; exit 0
fi
for i in 1 2 3; do
    "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
        --dump-dom "file://$tmp/run.html#step=5000&bench" 2> /dev/null |
        grep -o '<p id="pnv-timing"[^>]*>' | tr ' ' '\n' | grep data- |
        sed 's/^data-//; s/"//g' | tr '\n' ' '
    echo
done
echo "(ms; load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores)"
