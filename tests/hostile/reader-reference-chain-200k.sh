# a chain of 200,000 referencePlaces (r0 -> r1 -> ... -> p), about 10 MB:
# resolved without recursion (it overflowed the stack when resolve()
# recursed), and read right: the arc reaches p
want_exit=0
run() {
    awk 'BEGIN {
        print "<pnml><net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
        print "<place id=\"p\"><initialMarking><text>1</text></initialMarking></place><transition id=\"t\"/>"
        n = 200000
        for (i = 0; i < n; i++)
            printf "<referencePlace id=\"r%d\" ref=\"%s\"/>\n", i, (i + 1 < n ? "r" (i + 1) : "p")
        print "<arc id=\"a\" source=\"r0\" target=\"t\"/>"
        print "</page></net></pnml>" }' > chain.pnml
    "$BIN/pn-info" --dump chain.pnml
}
check() { grep -q 'id="a" p0 -> t0' out || { echo "arc not resolved to p:"; grep arc out; return 1; }; }
