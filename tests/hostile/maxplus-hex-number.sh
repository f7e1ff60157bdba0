# a hexadecimal number in a time (strtod reads 0x1p3 as 8): refused with
# the file and the arc named, not read as a time; exit 1
want_exit=1
want_msg="g.dot: arc 'a' -> 'b': time '0x1p3': a hexadecimal number"
run() {
    printf 'digraph g { a -> b [time="2 * 0X10"]; }\n' > h.dot
    "$BIN/pn-maxplus" h.dot 2>h.err
    [ $? -eq 1 ] && grep -q "hexadecimal" h.err || {
        echo "0X10: not refused" >&2; cat h.err >&2; return 9; }
    "$BIN/pn-maxplus" --set t=0x10 h.dot 2>h.err
    [ $? -eq 2 ] && grep -q "'t=0x10' is not NAME=NUMBER" h.err || {
        echo "--set t=0x10: not refused" >&2; cat h.err >&2; return 9; }
    printf 'digraph g {\n a -> b [time="0x1p3"];\n}\n' > g.dot
    "$BIN/pn-maxplus" g.dot
}
