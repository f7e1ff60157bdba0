# arc times that are finite but add up beyond a double along a path (or
# in the serialized model's waits): r overflows; an input error saying so,
# not "r: inf" with exit 0, for both methods; exit 1
want_exit=1
want_msg='the time r overflows'
run() {
    printf 'digraph g { a -> b [time="1e308"]; b -> c [time="1e308"]; }\n' > g.dot
    "$BIN/pn-maxplus" --method matrix g.dot >m.out 2>m.err
    [ $? -eq 1 ] && grep -q "overflows" m.err && ! grep -q inf m.out || {
        echo "matrix method: not refused" >&2; cat m.err >&2; return 9; }
    printf 'digraph g { a -> b [time="1"]; }\n' > s.dot
    "$BIN/pn-maxplus" --model serialized --executors 3 --dt 1e308 s.dot >s.out 2>s.err
    [ $? -eq 1 ] && grep -q "overflows" s.err && ! grep -q inf s.out || {
        echo "serialized waits: not refused" >&2; cat s.err >&2; return 9; }
    "$BIN/pn-maxplus" g.dot
}
check() {
    if grep -q inf out; then echo "inf printed" >&2; return 1; fi
}
