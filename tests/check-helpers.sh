#!/bin/sh
# One helper of each kind, in lib/ (lib_private.h): the growing string
# (lib/strbuf.c), the JSON string escaper (lib/json.c), the CSV and line
# reader (lib/csv.c).  Fails when a copy comes back: a buffer type or
# escaper of the old names, a second escaper or buffer by its shape, a
# second CSV reader, a results row parsed by its bytes.  Anyone can run
# it: sh tests/check-helpers.sh
. "${srcdir:-tests}/lib.sh"
top="$srcdir/.."

# the sources of the libraries, programs, tests and benchmarks (the
# generated viewer.h holds no code)
src=$(ls "$top"/lib/*.[ch] "$top"/pnml/*.[ch] "$top"/engine/*.[ch] \
      "$top"/maxplus/*.[ch] "$top"/generators/*.[ch] "$top"/gpu/*.[ch] \
      "$top"/render/*.[ch] "$top"/include/*.h "$top"/bin/*.[ch] \
      "$top"/bench/*.[ch] "$top"/tests/*.[ch] "$top"/tests/fuzz/*.[ch] \
      2>/dev/null | grep -v '/render/viewer\.h$')
[ -n "$src" ] && ok || bad "no sources found under $top"

# found WHAT PATTERN [FILE...]: the lines of the sources (but the FILEs,
# the helpers' own) that match the extended regular expression
found() {
    what=$1 re=$2; shift 2
    hits=$(for f in $src; do
        skip=
        for own in "$@"; do [ "$f" = "$top/$own" ] && skip=1; done
        [ -n "$skip" ] || grep -nE -- "$re" "$f" /dev/null
    done | sed "s|^$top/||")
    if [ -z "$hits" ]; then ok; else
        bad "$what:"
        echo "$hits" | sed 's/^/  | /' >&2
    fi
}

# the growing string
found "a string buffer type of its own (lib_private.h: pni_sb_t)" \
    '\b(sbuf_t|buf_t)\b'
# ... by its shape: a char pointer, then its length and capacity
shape=$(for f in $src; do
    case "$f" in "$top/lib/lib_private.h") continue ;; esac
    awk -v f="${f#$top/}" '
        prev ~ /^[ \t]*char \*[a-z_]+;/ && /^[ \t]*size_t [a-z_]+, [a-z_]*cap[a-z_]*;/ {
            print f ":" NR ": " prev " " $0 }
        { prev = $0 }' "$f"
done)
[ -z "$shape" ] && ok || bad "a growing string of its own (lib_private.h: pni_sb_t): $shape"
# the JSON escaper
found "a JSON escaper of the old names (lib_private.h: pni_json_string)" \
    '\b(json_text|put_json|cli_json_string|json_escape)\b'
found "a JSON escaper of its own, writing \\u00XX (lib_private.h: pni_json_string)" \
    'u%04x' lib/json.c
# the CSV reader, and results rows read by the bytes the writer writes
found "a CSV splitter of its own (lib_private.h: pni_csv_t)" \
    '\b(split_csv|csv_split|csv_private\.h)\b'
found "a second CSV reader (lib_private.h: pni_csv_t)" \
    '^(pn_status_t|int|static( [a-z_]+)+) \**[a-z_]*csv_(next|open|read|split)[a-z_]*\(' \
    lib/csv.c lib/lib_private.h
# (the programs read rows through pn_results_row_parse())
rows=$(grep -nE '"1,(point|run),|"\{\\"schema\\": 1' "$top"/bin/*.c | sed "s|^$top/||")
[ -z "$rows" ] && ok || bad "a results row read by its bytes: $rows"
# the alias of the options' init function is gone
found "pn_dot_defaults, gone (pn_dot_options_init())" '\bpn_dot_defaults\b'
finish
