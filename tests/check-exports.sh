#!/bin/sh
# libpn.so exports exactly the names of tests/libpn.exports: adding, removing
# or renaming a public function is a deliberate change of that list.  Every
# function the installed headers declare is in it, and nothing else.
. "${srcdir:-tests}/lib.sh"
so=$(ls "$top_builddir"/.libs/libpn.so.* 2>/dev/null | head -1)
if [ -z "$so" ]; then echo "no shared library built: skipped"; exit 77; fi
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort > "$TMP/syms"
[ -s "$TMP/syms" ] && ok || bad "no symbols read from $so"
sort "$srcdir/libpn.exports" > "$TMP/want"
if cmp -s "$TMP/syms" "$TMP/want"; then ok; else
    bad "exports differ from tests/libpn.exports: $(diff "$TMP/want" "$TMP/syms" | grep '^[<>]' | tr '\n' ' ')"
fi
# the functions the installed headers declare (static inline ones aside)
top="$srcdir/.."
for h in lib/status.h lib/net.h lib/groups.h pnml/pnml.h pnml/dump.h pnml/mcc.h \
         engine/engine.h engine/trace.h engine/reach.h engine/results.h maxplus/maxplus.h generators/gpu.h \
         generators/eventgraph.h render/dot.h; do
    # the preprocessor drops the comments (and expands nothing else)
    ${CC:-cc} -fpreprocessed -dD -E -P "$top/$h" | grep -v 'static inline' |
        grep -o '\bpn_[a-z0-9_]*(' | tr -d '('
done | sort -u > "$TMP/declared"
if cmp -s "$TMP/declared" "$TMP/want"; then ok; else
    bad "headers and tests/libpn.exports differ: $(diff "$TMP/want" "$TMP/declared" | grep '^[<>]' | tr '\n' ' ')"
fi
finish
