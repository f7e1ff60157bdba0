#!/bin/sh
# Quick start: install what is missing (Debian 12), bootstrap, configure,
# build, and run the main job on a built-in default.
#   sh share/quickstart.sh          (as root, or it prints the apt-get line)
# Then run the test suite with:  make check
set -eu
cd "$(dirname "$0")/.."

# chromium: tests/html-browser.sh opens the pages of pn-dot --html in it
# (headless), and make figures takes the viewer's screenshot with it;
# 4ti2: tests/struct-4ti2.sh checks pn-struct's semiflows against it;
# libsuitesparse-dev: UMFPACK, pn-solve's direct LU
PACKAGES="build-essential autoconf automake libtool pkg-config \
libxml2-dev libxml2-utils check libgraphviz-dev graphviz jing libyaml-dev gnuplot-nox \
libjansson-dev libglpk-dev libopenmpi-dev openmpi-bin chromium 4ti2 \
libsuitesparse-dev"

missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "quickstart: installing$missing"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    else
        echo "quickstart: missing packages; run as root:" >&2
        echo "  apt-get update && apt-get install -y$missing" >&2
        exit 1
    fi
fi

werror=""
[ "${CI:-}" = true ] && werror="--enable-werror"
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure $werror
make -j"$(nproc)"

# the main job: generate a GPU warp net, run it, render it
mkdir -p out
./bin/pn-gen-gpu --warps 32 -o out/gpu32.pnml
./bin/pn-info out/gpu32.pnml
./bin/pn-run --seed 1 --count t0 out/gpu32.pnml
./bin/pn-run --runs 100 --count t0 out/gpu32.pnml
if [ -x bin/pn-dot ]; then
    # folded (pn-dot's default at this size): w0 in full, the other warps
    # as boxes, on one page; pn-dot --no-fold draws every warp
    ./bin/pn-dot out/gpu32.pnml -o out/gpu32.svg
    ./bin/pn-run --trace out/gpu32.trace out/gpu32.pnml > /dev/null
    ./bin/pn-dot --trace out/gpu32.trace --timeline --steps 1-200 out/gpu32.pnml -o out/gpu32-timeline.svg
    echo "quickstart: rendered out/gpu32.svg (the net, folded) and out/gpu32-timeline.svg"
fi
echo "quickstart: done; outputs are in out/; run the tests with: make check"
