# a time of 50,000 unary minus signs: in one DOT string cgraph refuses it
# (16 KB strings); joined from pieces with DOT's + it reaches the
# expression reader, which stops at its depth limit instead of
# overflowing the stack (500,000 signs did without the limit): exit 1,
# the arc named
want_exit=1
want_msg="arc 'a' -> 'b': the time nests parentheses or signs deeper than 200"
minus() {
    awk -v n="$1" -v piece="$2" 'BEGIN {
        printf "digraph g { a -> b [time=\"";
        for (i = 1; i <= n; i++) printf (i % piece ? "-" : "-\" + \"");
        printf "1\"]; }\n" }'
}
run() {
    minus 50000 100000 > one.dot
    "$BIN/pn-maxplus" one.dot 2>one.err
    [ $? -eq 1 ] && grep -q "one.dot: not a Graphviz DOT graph" one.err || {
        echo "one string: not refused as DOT" >&2; cat one.err >&2; return 9; }
    minus 50000 5000 > joined.dot
    "$BIN/pn-maxplus" joined.dot 2>joined.err
    [ $? -eq 1 ] && grep -q "deeper than 200" joined.err || {
        echo "50,000 joined: not refused by depth" >&2; cat joined.err >&2
        return 9; }
    minus 500000 5000 > joined.dot
    "$BIN/pn-maxplus" joined.dot
}
