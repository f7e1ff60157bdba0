# a finite r times ceil(N/n) rounds beyond a double: the total overflows;
# an input error saying so, not "total: inf" with exit 0; exit 1
want_exit=1
want_msg='the total'
run() {
    printf 'digraph g { a -> b [time="1e300"]; }\n' > g.dot
    "$BIN/pn-maxplus" -N 1e200 g.dot
}
check() {
    grep -q overflows err || { echo "no 'overflows'" >&2; return 1; }
    if grep -q inf out; then echo "inf printed" >&2; return 1; fi
}
