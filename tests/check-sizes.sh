#!/bin/sh
# Sizes that keep the code readable: no file of the libraries over 1,500
# lines, no function over 150 lines outside bench/.  Prints the longest of
# each; run it from the source folder to see them:
#   sh tests/check-sizes.sh
. "${srcdir:-tests}/lib.sh"
top="${SIZES_TOP:-$srcdir/..}"
FILE_MAX=1500
FUNC_MAX=150
LIBDIRS="lib pnml engine analysis maxplus generators gpu render include"

# "lines file:line name" per function: from its first line at column 0
# (a name and a parenthesis, not a declaration) to the closing brace at
# column 0, the body opened by a brace at column 0
funcs() {
    awk '/^[A-Za-z_].*\(/ && !/;[ \t]*$/ {
             start = FNR; name = $0
             if (name ~ /^START_TEST\(/) {   # a Check test: its own name
                 sub(/^START_TEST\(/, "", name); sub(/\).*/, "", name)
             } else {
                 sub(/\(.*/, "", name)
                 n = split(name, w, /[ *]+/); name = w[n]
             } }
         /^\{/ { if (start) open = start }
         /^\}/ { if (open) { print FNR - open + 1, FILENAME ":" open, name
                             open = 0; start = 0 } }' "$@"
}

# the library files, longest first
files=""
for d in $LIBDIRS; do
    for f in "$top/$d"/*.[ch]; do [ -f "$f" ] && files="$files $f"; done
done
wc -l $files | grep -v ' total$' | sort -rn > "$TMP/files"
echo "longest library files (limit $FILE_MAX lines):"
head -5 "$TMP/files" | sed "s|$top/||"
while read -r n f; do
    if [ "$n" -gt "$FILE_MAX" ]; then bad "${f#$top/}: $n lines (limit $FILE_MAX)"; else ok; fi
done < "$TMP/files"

# every function of the tree but bench/, longest first
srcs=""
for d in $LIBDIRS bin tests tests/fuzz; do
    for f in "$top/$d"/*.c "$top/$d"/*.h; do [ -f "$f" ] && srcs="$srcs $f"; done
done
funcs $srcs | sort -rn > "$TMP/funcs"
echo "longest functions (limit $FUNC_MAX lines):"
head -5 "$TMP/funcs" | sed "s|$top/||"
while read -r n where name; do
    if [ "$n" -gt "$FUNC_MAX" ]; then bad "${where#$top/} $name: $n lines (limit $FUNC_MAX)"; else ok; fi
done < "$TMP/funcs"
[ -s "$TMP/funcs" ] && ok || bad "no function measured"

# the measure itself, on a function of 151 lines and one of 150
if [ -z "${SIZES_TOP:-}" ]; then
    mkdir -p "$TMP/tree/lib"
    { printf 'static int f(int x)\n{\n'
      i=0; while [ $i -lt 147 ]; do printf '    x++;\n'; i=$((i + 1)); done
      printf '    return x;\n}\n\nint g(void)\n{\n'
      i=0; while [ $i -lt 146 ]; do printf '    ;\n'; i=$((i + 1)); done
      printf '    return 0;\n}\n'; } > "$TMP/tree/lib/long.c"
    if SIZES_TOP="$TMP/tree" sh "$0" > "$TMP/self" 2>&1; then
        bad "the size check passes a function of 151 lines"
    else
        has "$TMP/self" "lib/long.c:1 f: 151 lines"
        lacks "$TMP/self" "lib/long.c:153 g: 150 lines (limit"
    fi
fi
finish
