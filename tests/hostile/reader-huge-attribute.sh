# an attribute value of 20 MB: refused in plain words, not as libxml2's
# "internal error: Huge input lookup"
want_exit=1
want_msg="huge.pnml:1:47: malformed XML: a single value, text or name longer than 10,000,000 bytes (the most the reader takes) [PN_EXML]"
run() {
    awk 'BEGIN {
        printf "<pnml><net id=\"n\" type=\"P/T net\"><page id=\"g\"><place id=\"p\" x=\""
        s = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        for (i = 0; i < 200000; i++) printf "%s", s
        print "\"/></page></net></pnml>" }' > huge.pnml
    "$BIN/pn-info" huge.pnml
}
check() { [ "$(wc -l < err)" -eq 1 ] || { echo "more than one line"; return 1; }; }
