# libxml2's own errors past line 65535 are placed right too
want_exit=1
want_msg="big.pnml:70001:"
run() {
    awk 'BEGIN {
        print "<pnml><net id=\"n\"><page id=\"g\">"
        for (i = 2; i < 70001; i++) printf "<place id=\"p%d\"/>\n", i
        print "<place id=\"q\"></transition>"
        print "</page></net></pnml>" }' > big.pnml
    "$BIN/pn-info" big.pnml
}
