#!/bin/sh
# Hostile inputs, outputs and command lines: one case per file in
# tests/hostile/, named after what it guards. Each case is a shell snippet
# sourced in a fresh scratch folder (the current directory) with $BIN (the
# programs) and $CASES (tests/hostile) set. It defines
#   want_exit   the documented exit code
#   want_msg    a fixed string the standard error must contain ('' = any)
#   run()       the command; may first write its input (large inputs are
#               generated here, never committed)
# and, optionally, check() for more assertions after the run (return 1 to
# fail; its standard error is shown). Every case also fails when the
# program dies of a signal or leaves a temporary file (*.tmp*) behind.
. "${srcdir:-tests}/lib.sh"
CASES="$srcdir/hostile"
export BIN CASES
for c in "$CASES"/*.sh; do
    name=$(basename "$c" .sh)
    w="$TMP/$name"
    mkdir -p "$w"
    (
        cd "$w" || exit 99
        want_msg=''
        check() { return 0; }
        . "$c"
        run >out 2>err
        got=$?
        if [ "$got" -ge 128 ]; then echo "killed by signal $((got - 128))"; exit 1; fi
        if [ "$got" -ne "$want_exit" ]; then echo "exit $got, wanted $want_exit"; exit 1; fi
        if [ -n "$want_msg" ] && ! grep -qF -- "$want_msg" err; then
            echo "stderr lacks '$want_msg'"; exit 1; fi
        left=$(find . -name '*.tmp*' | head -3)
        if [ -n "$left" ]; then echo "temporary files left: $left"; exit 1; fi
        check || exit 1
    ) >"$TMP/$name.why" 2>&1
    if [ $? -eq 0 ]; then ok; else
        bad "hostile/$name: $(head -1 "$TMP/$name.why")"
        sed -n '2,$p' "$TMP/$name.why" | head -10 >&2
        sed 's/^/  | /' "$w/err" 2>/dev/null | head -10 >&2
    fi
    rm -rf "$w"
done
finish
