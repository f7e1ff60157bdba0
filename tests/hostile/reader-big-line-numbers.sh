# positions past line 65535 are exact (70004:27 was reported as 70005:1)
want_exit=1
want_msg="big.pnml:70004:37: initial marking 'x': not an integer"
run() {
    awk 'BEGIN {
        print "<pnml><net id=\"n\"><page id=\"g\">"
        for (i = 2; i < 70004; i++) printf "<place id=\"p%d\"/>\n", i
        print "<place id=\"q\"><initialMarking><text>x</text></initialMarking></place>"
        print "</page></net></pnml>" }' > big.pnml
    "$BIN/pn-info" big.pnml
}
