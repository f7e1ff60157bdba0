#!/bin/sh
# Every command in the README's ```sh blocks and in the EXAMPLES of every
# man page runs and succeeds, in a scratch folder that has the source
# folder's tests/ and share/ and the few input files the examples name,
# with the built programs on PATH.
. "${srcdir:-tests}/lib.sh"
top=$(cd "$srcdir/.." && pwd)
bin=$(cd "$BIN" && pwd)
W="$TMP/work"
mkdir -p "$W"
ln -s "$top/tests" "$W/tests"
ln -s "$top/share" "$W/share"
"$bin/pn-gen-gpu" --warps 4 -o "$W/net.pnml"
cp "$top/tests/pnml/valid/old-tapaal/net.pnml" "$W/tapaal-export.pnml"
cp "$top/tests/pnml/valid/sample/net.pnml" "$W/mcc-model.pnml"

awk '/^```sh$/ {on=1; next} /^```/ {on=0} on && !/^#/ && NF' "$top/README.md" > "$TMP/cmds"
for man in "$top"/share/man/*.1; do
    awk '/^\.SH EXAMPLES/ {ex=1; next} /^\.SH/ {ex=0} ex && /^\.nf/ {on=1; next}
         ex && /^\.fi/ {on=0} on' "$man" >> "$TMP/cmds"
done
# the mpirun examples: as root too (containers, CI), and (below) no leak
# check of Open MPI's own allocations under AddressSanitizer; left out only
# when pn-sweep is built without MPI
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! grep -q '^#define HAVE_MPI 1' "$top_builddir/config.h"; then
    echo "pn-sweep is built without MPI: the mpirun examples are left out"
    grep -v '^mpirun ' "$TMP/cmds" > "$TMP/cmds2"; mv "$TMP/cmds2" "$TMP/cmds"
fi
n=$(wc -l < "$TMP/cmds")
[ "$n" -ge 15 ] && ok || bad "only $n example commands found"
while IFS= read -r cmd; do
    asan=${ASAN_OPTIONS:-}
    case $cmd in mpirun\ *) asan="$asan${asan:+:}detect_leaks=0" ;; esac
    if (cd "$W" && ASAN_OPTIONS=$asan PATH="$bin:$PATH" sh -c "$cmd") > "$TMP/out" 2> "$TMP/err"; then
        ok
    else
        bad "example failed: $cmd"; sed 's/^/  | /' "$TMP/err" >&2
    fi
done < "$TMP/cmds"
echo "ran $n example commands"
finish
