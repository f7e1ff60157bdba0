#!/bin/sh
# The library as a C programmer gets it: the build installed into a scratch
# folder (make install DESTDIR=...), then
#  - every installed header compiles alone, as C99 with -Wall -Wextra
#    -pedantic -Werror and as C++ (when a C++ compiler is there);
#  - every C example of README.md (```c blocks) and of the section-3 man
#    pages (the .nf block after "#include <pn/" in EXAMPLE) builds with
#    only `cc prog.c $(pkg-config --cflags --libs libpn)` (libpn-render
#    when it includes pn/dot.h) and runs;
#  - the README's lines that build and run its first C example (the
#    ```console block after it) run as written, with PKG_CONFIG_PATH and
#    LD_LIBRARY_PATH set as the README says for an installation under a
#    folder of one's own;
#  - the section-3 pages are installed, one per function name.
# Skipped (77) without a shared library (a static or sanitizer build).
. "${srcdir:-tests}/lib.sh"
top=$(cd "$srcdir/.." && pwd)
build=$(cd "$top_builddir" && pwd)
ls "$build"/.libs/libpn.so.* >/dev/null 2>&1 || { echo "no shared libpn: skipped"; exit 77; }
command -v pkg-config >/dev/null || { echo "no pkg-config: skipped"; exit 77; }
CC=${CC:-cc}

D="$TMP/inst"
if ! make -s -C "$build" install DESTDIR="$D" > "$TMP/install.log" 2>&1; then
    bad "make install DESTDIR failed"; sed 's/^/  | /' "$TMP/install.log" >&2
    finish; exit 1
fi
pc=$(find "$D" -name libpn.pc | head -1)
[ -n "$pc" ] && ok || { bad "no libpn.pc installed"; finish; exit 1; }
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
inc=$(find "$D" -type d -path '*/include/pn' | head -1)
[ -f "$pcdir/libpn-render.pc" ] && ok || bad "no libpn-render.pc installed"
PKG_CONFIG_PATH="$pcdir"; export PKG_CONFIG_PATH
PKG_CONFIG_SYSROOT_DIR="$D"; export PKG_CONFIG_SYSROOT_DIR
unset PKG_CONFIG_LIBDIR || :
cflags=$(pkg-config --cflags libpn)
# no third-party include folder: no public header needs one
case "$cflags" in *libxml*|*graphviz*) bad "pkg-config --cflags libpn: $cflags" ;; *) ok ;; esac

# every installed header alone, C99 and C++
CXX=$(command -v c++ || command -v g++ || :)
for h in "$inc"/*.h; do
    name=pn/$(basename "$h")
    printf '#include <%s>\nint pn_header_alone;\n' "$name" > "$TMP/h.c"
    if $CC -std=c99 -Wall -Wextra -pedantic -Werror $cflags -c "$TMP/h.c" \
        -o "$TMP/h.o" 2> "$TMP/err"; then ok; else
        bad "$name does not compile alone as C99"; sed 's/^/  | /' "$TMP/err" >&2; fi
    if [ -n "$CXX" ]; then
        cp "$TMP/h.c" "$TMP/h.cc"
        if $CXX -Wall -Wextra -pedantic -Werror $cflags -c "$TMP/h.cc" \
            -o "$TMP/h.o" 2> "$TMP/err"; then ok; else
            bad "$name does not compile as C++"; sed 's/^/  | /' "$TMP/err" >&2; fi
    fi
done

# the C examples: README's ```c blocks, the man pages' EXAMPLE programs
mkdir -p "$TMP/ex"
awk -v dir="$TMP/ex" '/^```c$/ {n++; on=1; f=dir "/readme-" n ".c"; next}
    /^```/ {on=0} on {print > f}' "$top/README.md"
for man in "$top"/share/man/*.3; do
    [ -f "$man" ] || continue
    # the example program: the .nf/.fi block of EXAMPLE, troff escapes
    # undone (\e a backslash, \- a minus, \(dq a quote)
    awk -v f="$TMP/ex/man-$(basename "$man" .3).c" '
        /^\.SH EXAMPLE/ {ex=1; next} /^\.SH/ {ex=0}
        ex && /^\.nf/ {on=1; next} ex && /^\.fi/ {on=0; ex=0}
        ex && on {gsub(/\\e/, "\\"); gsub(/\\-/, "-"); gsub(/\\\(dq/, "\"");
                  gsub(/^\\&/, ""); print > f}' "$man"
done
n=$(ls "$TMP/ex" | wc -l)
[ "$n" -ge 1 ] && ok || bad "no C example found"
cp "$top/tests/pnml/valid/sample/net.pnml" "$TMP/ex/net.pnml"
for c in "$TMP"/ex/*.c; do
    [ -s "$c" ] || continue
    pkgs=libpn
    grep -q '<pn/dot.h>' "$c" && pkgs=libpn-render
    ex=$(basename "$c" .c)
    if (cd "$TMP/ex" && $CC -std=c99 -Wall -Wextra -Werror "$c" \
            $(pkg-config --cflags --libs $pkgs) -o "$ex") 2> "$TMP/err"; then ok; else
        bad "$ex does not build: cc $ex.c \$(pkg-config --cflags --libs $pkgs)"
        sed 's/^/  | /' "$TMP/err" >&2; continue
    fi
    # the installed library, not the build folder's
    if (cd "$TMP/ex" && LD_LIBRARY_PATH="$libdir" "./$ex" net.pnml) \
            > "$TMP/out" 2> "$TMP/err"; then ok; else
        bad "$ex failed"; sed 's/^/  | /' "$TMP/err" >&2
    fi
    if LD_LIBRARY_PATH="$libdir" ldd "$TMP/ex/$ex" | grep -q "$libdir/libpn"; then ok; else
        bad "$ex does not load the installed libpn"
    fi
done
echo "built and ran $n examples against $D"

# the README's own lines, as written, on its first example saved as prog.c
mkdir -p "$TMP/prog"
cp "$TMP/ex/readme-1.c" "$TMP/prog/prog.c"
cp "$top/tests/pnml/valid/sample/net.pnml" "$TMP/prog/net.pnml"
awk '/^```c$/ {c = 1} c && /^```console$/ {on = 1; next} on && /^```/ {exit}
     on' "$top/README.md" > "$TMP/prog.sh"
grep -q 'pkg-config' "$TMP/prog.sh" && ok || bad "README.md shows no line that builds its C example"
if (cd "$TMP/prog" && LD_LIBRARY_PATH="$libdir" sh -e "$TMP/prog.sh") \
        > "$TMP/out" 2> "$TMP/err"; then ok; else
    bad "the README's lines failed:"; sed 's/^/  | /' "$TMP/prog.sh" "$TMP/err" >&2
fi
has "$TMP/out" "places, "

# section-3 pages: one per function the headers declare
man3=$(find "$D" -type d -name man3 | head -1)
if [ -n "$man3" ]; then
    cat "$srcdir/libpn.exports" "$srcdir/libpn-render.exports" | while read -r f; do
        [ -f "$man3/$f.3" ] && echo ok || echo "bad $f"
    done > "$TMP/man3"
    missing=$(grep '^bad' "$TMP/man3" | cut -c5- | tr '\n' ' ')
    [ -z "$missing" ] && ok || bad "no section-3 page for: $missing"
fi
finish
