# a second graph after the kernel graph in the same file is refused with
# the file and the line where it starts, not ignored; text after the graph
# that is no graph is a syntax error; exit 1
want_exit=1
want_msg='g.dot:5: a second graph'
run() {
    printf 'digraph g { a -> b [time="3"]; } x\n' > junk.dot
    "$BIN/pn-maxplus" junk.dot 2>junk.err
    [ $? -eq 1 ] && grep -q "junk.dot: .*syntax error" junk.err || {
        echo "trailing text: not refused" >&2; cat junk.err >&2; return 9; }
    printf 'digraph g { a -> b [time="3"];\n c [label="}"]; }\n\n# one\n' > g.dot
    printf '/* two } */ digraph h {\n c -> d [time="4"]; }\n' >> g.dot
    "$BIN/pn-maxplus" g.dot
}
