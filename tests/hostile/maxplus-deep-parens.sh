# a time nested 50,000 parentheses deep: in one DOT string cgraph refuses
# it (16 KB strings); joined from pieces with DOT's + it reaches the
# expression reader, which stops at its depth limit instead of
# overflowing the stack: exit 1, the arc named
want_exit=1
want_msg="arc 'a' -> 'b': the time nests parentheses or signs deeper than 200"
run() {
    awk 'BEGIN {
        printf "digraph g { a -> b [time=\"";
        for (i = 0; i < 50000; i++) printf "(";
        printf "1";
        for (i = 0; i < 50000; i++) printf ")";
        printf "\"]; }\n" }' > one.dot
    "$BIN/pn-maxplus" one.dot 2>one.err
    [ $? -eq 1 ] && grep -q "one.dot: not a Graphviz DOT graph" one.err || {
        echo "one string: not refused as DOT" >&2; cat one.err >&2; return 9; }
    awk 'BEGIN {
        printf "digraph g { a -> b [time=\"";
        for (i = 1; i <= 50000; i++) printf (i % 5000 ? "(" : "(\" + \"");
        printf "1";
        for (i = 1; i <= 50000; i++) printf (i % 5000 ? ")" : ")\" + \"");
        printf "\"]; }\n" }' > joined.dot
    "$BIN/pn-maxplus" joined.dot
}
