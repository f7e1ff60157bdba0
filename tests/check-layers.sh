#!/bin/sh
# The layering of doc/architecture.md, checked on the sources: no file
# includes a header of a folder above its own or beside it, and third-party
# headers appear only where their folder is allowed them.  (The build
# enforces the same with per-folder include paths; this names the file.)
. "${srcdir:-tests}/lib.sh"
# LAYERS_TOP: check that tree instead (the self-test at the end)
top="${LAYERS_TOP:-$srcdir/..}"

# folder: the folders whose headers it may include (itself first)
allowed() {
    case "$1" in
    lib) echo "lib" ;;
    pnml) echo "pnml lib" ;;
    engine) echo "engine lib" ;;
    analysis) echo "analysis engine lib" ;;
    stochastic) echo "stochastic lib" ;;
    maxplus) echo "maxplus lib" ;;
    generators) echo "generators maxplus lib" ;;
    gpu) echo "gpu generators analysis engine maxplus lib" ;;
    render) echo "render engine lib" ;;
    include) echo "include gpu render generators maxplus stochastic analysis engine pnml lib" ;;
    esac
}
# folder: the third-party headers it may include
third_party() {
    case "$1" in
    pnml) echo "libxml" ;;
    render|maxplus) echo "graphviz" ;;
    stochastic) echo "suitesparse" ;;
    esac
}

for dir in lib pnml engine analysis stochastic maxplus generators gpu render include; do
    for f in "$top/$dir"/*.c "$top/$dir"/*.h; do
        [ -f "$f" ] || continue
        name="$dir/$(basename "$f")"
        # local headers
        for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
            # config.h and version.h: made by configure, viewer.h by the
            # build (in the build folder)
            [ "$h" = config.h ] || [ "$h" = version.h ] && continue
            [ "$name" = render/html.c ] && [ "$h" = viewer.h ] && continue
            found=""
            for d in lib pnml engine analysis stochastic maxplus generators gpu render include; do
                [ -f "$top/$d/$h" ] && found="$found $d"
            done
            case " $(allowed "$dir") " in
            *" $(echo $found | cut -d' ' -f1) "*)
                [ -n "$found" ] && ok || bad "$name includes \"$h\", found nowhere" ;;
            *) bad "$name includes \"$h\" of$found, a folder $dir may not use (it may use: $(allowed "$dir"))" ;;
            esac
        done
        # third-party headers
        for h in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*<\([a-z0-9]*\)\/.*/\1/p' "$f"); do
            [ "$h" = sys ] && continue
            case " $(third_party "$dir") " in
            *" $h "*) ok ;;
            *) bad "$name includes <$h/...>: only $(for d in pnml render maxplus stochastic; do case " $(third_party $d) " in *" $h "*) printf '%s/ ' $d;; esac; done)may" ;;
            esac
        done
    done
done
# Graphviz inside maxplus/: the kernel graph reader alone, and cgraph alone
# (libpn links libcgraph only; layout and rendering, libgvc, are
# libpn-render's: render/)
for f in "$top"/maxplus/*.c; do
    case "$f" in */kernel_dot.c) continue ;; esac
    grep -q '#include <graphviz/' "$f" && bad "maxplus/$(basename "$f") calls Graphviz: only kernel_dot.c may" || ok
done
for f in "$top"/lib/*.[ch] "$top"/pnml/*.[ch] "$top"/engine/*.[ch] \
         "$top"/analysis/*.[ch] "$top"/stochastic/*.[ch] \
         "$top"/maxplus/*.[ch] "$top"/generators/*.[ch] "$top"/include/*.h; do
    grep -q '#include <graphviz/\(gvc\|gvcext\|gvplugin\)' "$f" &&
        bad "$f includes Graphviz's layout and rendering (libgvc): only render/ may" || ok
done
# the umbrella header is libpn's: the pictures' header (libpn-render) is
# included on its own
grep -q '"dot.h"' "$top/include/pn.h" && bad "include/pn.h includes dot.h (libpn-render's)" || ok

# the check itself, on a copy of the headers with two wrong-way includes
# planted: into analysis/ from engine/ below it, and out of analysis/ into
# pnml/ beside it; each must be named
if [ -z "${LAYERS_TOP:-}" ]; then
    for d in lib pnml engine analysis stochastic maxplus generators gpu render include; do
        mkdir -p "$TMP/tree/$d"
        cp "$top/$d"/*.h "$TMP/tree/$d/"
    done
    printf '#include "reach.h"\n' > "$TMP/tree/engine/wrong.c"
    printf '#include "pnml.h"\n' > "$TMP/tree/analysis/wrong.c"
    if LAYERS_TOP="$TMP/tree" sh "$0" > "$TMP/self" 2>&1; then
        bad "the layering check passes a tree with wrong-way includes"
    else
        has "$TMP/self" 'engine/wrong.c includes "reach.h" of analysis'
        has "$TMP/self" 'analysis/wrong.c includes "pnml.h" of pnml'
    fi
fi
finish
