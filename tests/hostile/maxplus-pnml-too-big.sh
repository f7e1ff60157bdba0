# --pnml on a kernel graph with a few huge times: the event graph (a place
# and a transition per unit of time) would have 30 million nodes and
# gigabytes of PNML; refused before it is built, with its size and the
# limit (1,000,000 places and transitions): exit 2, nothing written
want_exit=2
want_msg='more than the limit of 1000000'
run() {
    printf 'digraph g { a -> b [time="9999999"]; b -> c [time="9999999"];
        c -> d [time="9999999"]; }\n' > g.dot
    "$BIN/pn-maxplus" --pnml net.pnml g.dot
}
check() {
    if [ -e net.pnml ]; then echo "net.pnml was written" >&2; return 1; fi
}
