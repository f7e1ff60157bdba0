# inf and nan positions are refused when read (they were written back as
# inf): the message names the coordinate and its line
want_exit=1
want_msg="c.pnml:3:35: position x='inf' is not a finite number [PN_EVALUE]"
run() {
    printf '<pnml><net id="n"><page id="g">\n<place id="q"/>\n<place id="p"><graphics><position x="inf" y="1"/></graphics></place>\n</page></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
