#!/bin/sh
# Every command in the README's ```sh blocks and in the EXAMPLES of every
# man page runs and succeeds, as a reader runs them: first the README's
# setup lines (the ```console block after "<!-- examples: setup -->"), as
# written, in the source folder; then each example in the folder they end
# in, with the PATH they set (and the build's programs first, for a build
# outside the source folder), beside the few input files the man pages'
# examples name.  Afterwards the checkout has no new untracked file.
. "${srcdir:-tests}/lib.sh"
top=$(cd "$srcdir/.." && pwd)
bin=$(cd "$BIN" && pwd)

# untracked: the checkout's untracked files that git does not ignore
# (nothing when the source folder is not a git checkout of its own)
untracked() {
    if [ "$(git -C "$top" rev-parse --show-toplevel 2> /dev/null)" = "$(cd "$top" && pwd -P)" ]; then
        git -C "$top" status --porcelain --untracked-files=all | sed -n 's/^?? //p' | sort
    fi
}
untracked > "$TMP/untracked.before"

awk '/^<!-- examples: setup -->$/ {s = 1; next}
     s && /^```console$/ {on = 1; next} on && /^```/ {exit} on' "$top/README.md" > "$TMP/setup"
[ -s "$TMP/setup" ] && ok || bad "README.md says no setup before its examples"
# the scratch folder that mktemp makes lies in $TMP, removed at the end
if (cd "$top" && TMPDIR="$TMP" sh -c ". '$TMP/setup' && pwd && echo \"\$PATH\"") \
        > "$TMP/where" 2> "$TMP/err"; then ok; else
    bad "the README's setup failed"; sed 's/^/  | /' "$TMP/err" >&2
fi
W=$(sed -n 1p "$TMP/where")
path=$(sed -n 2p "$TMP/where")
[ -d "$W" ] || { bad "the setup ends in no folder"; finish; exit 1; }
for f in tests share; do
    [ -e "$W/$f" ] && ok || bad "the setup leaves no $f in $W"
done
"$bin/pn-gen-gpu" --warps 4 -o "$W/net.pnml"
cp "$top/tests/pnml/valid/old-tapaal/net.pnml" "$W/tapaal-export.pnml"
cp "$top/tests/pnml/valid/sample/net.pnml" "$W/mcc-model.pnml"

awk '/^```sh$/ {on=1; next} /^```/ {on=0} on && !/^#/ && NF' "$top/README.md" > "$TMP/cmds"
for man in "$top"/share/man/*.1; do
    awk '/^\.SH EXAMPLES/ {ex=1; next} /^\.SH/ {ex=0} ex && /^\.nf/ {on=1; next}
         ex && /^\.fi/ {on=0} on' "$man" >> "$TMP/cmds"
done
# the mpirun examples: as root (containers, CI) with what the README says
# to set, and (below) no leak check of Open MPI's own allocations under
# AddressSanitizer; left out only when pn-sweep is built without MPI
unset OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
if ! grep -q '^#define HAVE_MPI 1' "$top_builddir/config.h"; then
    echo "pn-sweep is built without MPI: the mpirun examples are left out"
    grep -v '^mpirun ' "$TMP/cmds" > "$TMP/cmds2"; mv "$TMP/cmds2" "$TMP/cmds"
elif [ "$(id -u)" -eq 0 ]; then
    as_root=$(grep '^export OMPI_ALLOW_RUN_AS_ROOT' "$top/README.md" | head -1)
    [ -n "$as_root" ] && ok || bad "README.md does not say what mpirun needs as root"
    eval "$as_root"
fi
n=$(wc -l < "$TMP/cmds")
[ "$n" -ge 15 ] && ok || bad "only $n example commands found"
while IFS= read -r cmd; do
    asan=${ASAN_OPTIONS:-}
    case $cmd in mpirun\ *) asan="$asan${asan:+:}detect_leaks=0" ;; esac
    if (cd "$W" && ASAN_OPTIONS=$asan PATH="$bin:$path" sh -c "$cmd") \
            < /dev/null > "$TMP/out" 2> "$TMP/err"; then
        ok
    else
        bad "example failed: $cmd"; sed 's/^/  | /' "$TMP/err" >&2
    fi
done < "$TMP/cmds"
echo "ran $n example commands in $W"

# the checkout as it was
untracked | comm -13 "$TMP/untracked.before" - > "$TMP/untracked.new"
if [ -s "$TMP/untracked.new" ]; then
    bad "the examples left files in the checkout:"; sed 's/^/  | /' "$TMP/untracked.new" >&2
else
    ok
fi
finish
