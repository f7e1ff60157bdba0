# a time that overflows a double (1e308*10, 1e999, a huge product): an
# input error naming the arc and saying so, not "cannot read" or r: inf;
# exit 1
want_exit=1
want_msg="arc 'a' -> 'b': the time '1e308*10' overflows"
run() {
    for t in 1e999 '2e200*3e200*0+1e200*1e200'; do
        printf 'digraph g { a -> b [time="%s"]; }\n' "$t" > g.dot
        "$BIN/pn-maxplus" g.dot 2>g.err
        [ $? -eq 1 ] && grep -q "overflows" g.err || {
            echo "$t: not refused as an overflow" >&2; cat g.err >&2; return 9; }
    done
    printf 'digraph g { a -> b [time="1e308*10"]; }\n' > g.dot
    "$BIN/pn-maxplus" g.dot
}
