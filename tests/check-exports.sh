#!/bin/sh
# Each installed library exports exactly the names of its list:
# tests/libpn.exports for libpn.so, tests/libpn-render.exports for
# libpn-render.so.  Adding, removing or renaming a public function is a
# deliberate change of a list.  Every function the library's installed
# headers declare is in its list, and nothing else.  Programs that draw
# nothing (and libpn.so itself) do not load Graphviz's layout and rendering
# library, libgvc: pictures live in libpn-render.
. "${srcdir:-tests}/lib.sh"
top="$srcdir/.."

# exports LIB LIST HEADERS...: LIB's exports are LIST, and LIST is what
# HEADERS declare
exports() {
    lib=$1 list=$2; shift 2
    so=$(ls "$top_builddir"/.libs/$lib.so.* 2>/dev/null | head -1)
    if [ -z "$so" ]; then echo "no shared $lib built: skipped"; return; fi
    nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort > "$TMP/syms"
    [ -s "$TMP/syms" ] && ok || bad "no symbols read from $so"
    sort "$srcdir/$list" > "$TMP/want"
    if cmp -s "$TMP/syms" "$TMP/want"; then ok; else
        bad "$lib exports differ from tests/$list: $(diff "$TMP/want" "$TMP/syms" | grep '^[<>]' | tr '\n' ' ')"
    fi
    # the functions the installed headers declare (static inline ones aside)
    for h in "$@"; do
        # the preprocessor drops the comments (and expands nothing else)
        ${CC:-cc} -fpreprocessed -dD -E -P "$top/$h" | grep -v 'static inline' |
            grep -o '\bpn_[a-z0-9_]*(' | tr -d '('
    done | sort -u > "$TMP/declared"
    if cmp -s "$TMP/declared" "$TMP/want"; then ok; else
        bad "headers and tests/$list differ: $(diff "$TMP/want" "$TMP/declared" | grep '^[<>]' | tr '\n' ' ')"
    fi
}

exports libpn libpn.exports lib/status.h lib/net.h lib/groups.h lib/query.h pnml/pnml.h \
    pnml/dump.h pnml/mcc.h engine/engine.h engine/trace.h analysis/reach.h analysis/struct.h analysis/graph.h stochastic/gspn.h stochastic/sim_gspn.h engine/results.h \
    maxplus/maxplus.h generators/gpu.h generators/eventgraph.h gpu/predict.h
exports libpn-render libpn-render.exports render/dot.h

# every exported function has its section-3 page (share/man/man3-links:
# "function page", the page one of share/man/*.3)
cut -d' ' -f1 "$top/share/man/man3-links" | sort > "$TMP/links"
missing=$(cat "$srcdir/libpn.exports" "$srcdir/libpn-render.exports" | sort | comm -23 - "$TMP/links" | tr '\n' ' ')
[ -z "$missing" ] && ok || bad "share/man/man3-links lacks: $missing"
while read -r fn page; do
    [ -f "$top/share/man/$page.3" ] && ok || bad "man3-links: $fn leads to $page.3, which is not there"
    grep -q "\b$fn\b" "$top/share/man/$page.3" && ok || bad "$page.3 does not name $fn"
done < "$top/share/man/man3-links"

# shared libraries a program or library loads (through libtool's wrapper
# for the programs, which finds the uninstalled libraries)
needs() {
    case "$1" in
    *.so*) ldd "$1" ;;
    *) "$top_builddir/libtool" --mode=execute ldd "$1" ;;
    esac 2>/dev/null | awk '{print $1}'
}
so=$(ls "$top_builddir"/.libs/libpn.so.* 2>/dev/null | head -1)
if [ -n "$so" ] && [ -x "$top_builddir/libtool" ]; then
    for f in "$so" "$BIN/pn-info" "$BIN/pn-run" "$BIN/pn-convert" \
             "$BIN/pn-gen-gpu" "$BIN/pn-reach" "$BIN/pn-maxplus"; do
        needs "$f" > "$TMP/needs"
        grep -q '^libxml2' "$TMP/needs" && ok || bad "$f: ldd lists no libxml2 (ldd failed?)"
        if grep -q '^libgvc' "$TMP/needs"; then bad "$f loads libgvc"; else ok; fi
        if grep -q '^libpn-render' "$TMP/needs"; then bad "$f loads libpn-render"; else ok; fi
    done
    needs "$BIN/pn-dot" > "$TMP/needs"
    grep -q '^libgvc' "$TMP/needs" && ok || bad "pn-dot does not load libgvc (ldd failed?)"
    grep -q '^libpn-render' "$TMP/needs" && ok || bad "pn-dot does not load libpn-render"
fi
finish
