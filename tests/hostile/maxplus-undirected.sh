# an undirected graph (graph {} with a -- b) is no kernel graph: refused
# with the file and the line of its header, not read as arcs; exit 1
want_exit=1
want_msg='g.dot:3: an undirected graph'
run() {
    printf '// a comment\n/* and\n */ graph g {\n a -- b [time="3"];\n}\n' > g.dot
    "$BIN/pn-maxplus" g.dot
}
