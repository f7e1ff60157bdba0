#!/bin/sh
# One letter, one meaning: every program's --help is read for its
# "-x, --long" pairs; a letter that goes with two long options across the
# programs fails, and so does any difference between the help texts and
# the table "Command-line letters" of doc/architecture.md (each letter's
# long option and the programs that have it).
. "${srcdir:-tests}/lib.sh"
DOC="$srcdir/../doc/architecture.md"
FIX="$srcdir/pnml/valid/sample/net.pnml"

# the programs: those with a man page in section 1
progs=$(cd "$srcdir/../share/man" && ls *.1 | sed 's/\.1$//' | sort)
[ -n "$progs" ] && ok || bad "no man page of a program found"

# "letter long program" for every letter of every --help
: > "$TMP/help"
for p in $progs; do
    if "$BIN/$p" --help > "$TMP/$p.help" 2>&1; then ok; else bad "$p --help failed"; fi
    awk -v p="$p" '
        /^  -[A-Za-z], / {
            line = $0
            sub(/^  /, "", line)
            n = 0
            while (match(line, /^-[A-Za-z], /)) {
                letters[++n] = substr(line, 2, 1)
                line = substr(line, RLENGTH + 1)
            }
            if (match(line, /^--[A-Za-z0-9-]+/)) {
                long = substr(line, 3, RLENGTH - 2)
                for (i = 1; i <= n; i++)
                    print letters[i], long, p
            }
        }' "$TMP/$p.help" >> "$TMP/help"
done
[ -s "$TMP/help" ] && ok || bad "no -x, --long pair in any --help"

# a letter with two long options
awk '{ if (($1 in long) && long[$1] != $2)
           printf "-%s is --%s in %s but --%s in %s\n", $1, long[$1], prog[$1], $2, $3
       else if (!($1 in long)) { long[$1] = $2; prog[$1] = $3 } }' \
    "$TMP/help" > "$TMP/clash"
if [ -s "$TMP/clash" ]; then bad "a letter means two things:"; sed 's/^/  | /' "$TMP/clash" >&2; else ok; fi

# the table: "letter long program" for each program it lists
awk -v all="$(echo $progs)" '
    /^## Command-line letters/ { on = 1; next }
    /^## / { on = 0 }
    on && /^\| `-[A-Za-z]` \|/ {
        n = split($0, f, "|")
        letter = f[2]; long = f[3]; who = f[n - 1]
        gsub(/[ `-]/, "", letter)
        gsub(/[ `]/, "", long); sub(/^--/, "", long)
        if (who ~ /every program/) who = all
        m = split(who, w, " ")
        for (i = 1; i <= m; i++)
            print letter, long, w[i]
    }' "$DOC" | sort > "$TMP/table"
[ -s "$TMP/table" ] && ok || bad "no table 'Command-line letters' in $DOC"
sort "$TMP/help" > "$TMP/help.sorted"
if cmp -s "$TMP/table" "$TMP/help.sorted"; then ok; else
    bad "doc/architecture.md's letters and the --help texts differ (< table, > --help):"
    diff "$TMP/table" "$TMP/help.sorted" | grep '^[<>]' | sed 's/^/  | /' >&2
fi

# the options every program has
for p in $progs; do
    for pair in "q quiet" "h help" "V version"; do
        set -- $pair
        grep -q "^$1 $2 $p\$" "$TMP/help" && ok || bad "$p --help lacks -$1, --$2"
    done
done
# --- one language: the same words for the same things ------------------
# a bad --format: one message, status 2, in every program that has it
for p in $(awk '$2 == "format" { print $3 }' "$TMP/help" | sort -u); do
    expect 2 "$BIN/$p" -f bogus
    has "$TMP/err" "$p: --format: 'bogus' is not "
done
# a bad number: one message
expect 2 "$BIN/pn-run" --runs x "$FIX"
has "$TMP/err" "pn-run: --runs: 'x' is not a whole number from 1 to 100000000"
expect 2 "$BIN/pn-sweep" --runs 0
has "$TMP/err" "pn-sweep: --runs: '0' is not a whole number from 1 to 100000000"
expect 2 "$BIN/pn-sweep" --jobs 0
has "$TMP/err" "pn-sweep: --jobs: '0' is not a whole number from 1 to 1024"
expect 2 "$BIN/pn-reach" --max-states -1 "$FIX"
has "$TMP/err" "pn-reach: --max-states: '-1' is not a whole number from 1 to"
expect 2 "$BIN/pn-gen-gpu" --warps 1x
has "$TMP/err" "pn-gen-gpu: --warps: '1x' is not a whole number from 1 to"
expect 2 "$BIN/pn-dot" --dpi 0 "$FIX"
has "$TMP/err" "pn-dot: --dpi: '0' is not a whole number from 1 to"
expect 2 "$BIN/pn-maxplus" --dt -1 x.dot
has "$TMP/err" "pn-maxplus: --dt: '-1' is not a number >= 0"
expect 2 "$BIN/pn-gpu" predict --arith x
has "$TMP/err" "pn-gpu: --arith: 'x' is not a number >= 0"
# one word list for the dialects, and --semantics
for p in pn-convert pn-gen-gpu; do
    expect 2 "$BIN/$p" -d bogus
    has "$TMP/err" "$p: --dialect: 'bogus' is not standard, strict, pipe, tapaal, woped or pnpro"
done
for p in pn-run pn-reach pn-sweep; do
    expect 2 "$BIN/$p" --semantics bogus
    has "$TMP/err" "$p: --semantics: 'bogus' is not maximal or interleaving"
done
# -q: the reader's warnings are not said; without it they are
W="$srcdir/pnml/valid/tapaal-timed/net.pnml"
for cmd in "pn-run --steps 10" "pn-reach" "pn-dot -f dot" "pn-convert" \
           "pn-sweep --runs 1 --steps 10"; do
    set -- $cmd
    p=$1; shift
    "$BIN/$p" "$@" "$W" > /dev/null 2> "$TMP/err"
    has "$TMP/err" "$p: warning: "
    "$BIN/$p" -q "$@" "$W" > /dev/null 2> "$TMP/err"
    [ -s "$TMP/err" ] && bad "$p -q wrote on standard error: $(cat "$TMP/err")" || ok
done
# standard input is <stdin> in every message
printf 'garbage\n' > "$TMP/garbage"
for cmd in "pn-info -" "pn-run -" "pn-reach -" "pn-convert -" "pn-dot -" \
           "pn-dot --trace - $FIX" "pn-gen-gpu --workload -" "pn-maxplus -" \
           "pn-gpu predict -D $srcdir/../share/gpu-data/hopper/deviceInfo.csv -"; do
    set -- $cmd
    p=$1; shift
    "$BIN/$p" "$@" < "$TMP/garbage" > /dev/null 2> "$TMP/err"
    has "$TMP/err" "<stdin>"
done
finish
