#!/bin/sh
# The layering of doc/architecture.md, checked on the sources: no file
# includes a header of a folder above its own or beside it, and third-party
# headers appear only where their folder is allowed them.  (The build
# enforces the same with per-folder include paths; this names the file.)
. "${srcdir:-tests}/lib.sh"
top="$srcdir/.."

# folder: the folders whose headers it may include (itself first)
allowed() {
    case "$1" in
    lib) echo "lib" ;;
    pnml) echo "pnml lib" ;;
    engine) echo "engine lib" ;;
    maxplus) echo "maxplus lib" ;;
    generators) echo "generators maxplus lib" ;;
    gpu) echo "gpu generators engine maxplus lib" ;;
    render) echo "render engine lib" ;;
    include) echo "include gpu render generators maxplus engine pnml lib" ;;
    esac
}
# folder: the third-party headers it may include
third_party() {
    case "$1" in
    pnml) echo "libxml" ;;
    render|maxplus) echo "graphviz" ;;
    esac
}

for dir in lib pnml engine maxplus generators gpu render include; do
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
            for d in lib pnml engine maxplus generators gpu render include; do
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
            *) bad "$name includes <$h/...>: only $(for d in pnml render maxplus; do case " $(third_party $d) " in *" $h "*) printf '%s/ ' $d;; esac; done)may" ;;
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
         "$top"/maxplus/*.[ch] "$top"/generators/*.[ch] "$top"/include/*.h; do
    grep -q '#include <graphviz/\(gvc\|gvcext\|gvplugin\)' "$f" &&
        bad "$f includes Graphviz's layout and rendering (libgvc): only render/ may" || ok
done
# the umbrella header is libpn's: the pictures' header (libpn-render) is
# included on its own
grep -q '"dot.h"' "$top/include/pn.h" && bad "include/pn.h includes dot.h (libpn-render's)" || ok
finish
