# Helpers for the command-line tests (sourced).
set -u
: "${top_builddir:=.}" "${srcdir:=tests}"
BIN="$top_builddir/bin"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pn-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect CODE CMD...: runs CMD, stdout to $TMP/out, stderr to $TMP/err
expect() {
    want=$1; shift
    "$@" >"$TMP/out" 2>"$TMP/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        bad "exit $got, wanted $want: $*"; sed 's/^/  | /' "$TMP/err" >&2; fi
}

# has FILE TEXT: FILE contains TEXT (fixed string)
has() {
    if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks '$2'"; sed 's/^/  | /' "$1" | head -20 >&2; fi
}
lacks() {
    if grep -qF -- "$2" "$1"; then bad "$1 has '$2'"; else ok; fi
}

# man_documents_options PROG: every --option of PROG --help is in PROG.1
man_documents_options() {
    "$BIN/$1" --help | grep -o -- '--[a-zA-Z0-9-]*' | sort -u > "$TMP/opts"
    while read -r opt; do
        if grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" "$srcdir/../share/man/$1.1"; then ok; else bad "$1.1 lacks $opt"; fi
    done < "$TMP/opts"
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
