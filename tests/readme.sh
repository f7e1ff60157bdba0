#!/bin/sh
# Every command in the README's ```sh blocks runs and succeeds, from a
# copy of the source folder's tests/ with the built programs on PATH.
. "${srcdir:-tests}/lib.sh"
README="$srcdir/../README.md"
top=$(cd "$srcdir/.." && pwd)
bin=$(cd "$BIN" && pwd)
mkdir -p "$TMP/work"
ln -s "$top/tests" "$TMP/work/tests"
ln -s "$top/share" "$TMP/work/share"
awk '/^```sh$/ {on=1; next} /^```/ {on=0} on && !/^#/ && NF' "$README" > "$TMP/cmds"
n=$(wc -l < "$TMP/cmds")
[ "$n" -ge 3 ] && ok || bad "only $n README commands found"
while IFS= read -r cmd; do
    if (cd "$TMP/work" && PATH="$bin:$PATH" sh -c "$cmd") > "$TMP/out" 2> "$TMP/err"; then
        ok
    else
        bad "README command failed: $cmd"; sed 's/^/  | /' "$TMP/err" >&2
    fi
done < "$TMP/cmds"
echo "ran $n README commands"
finish
