# a coordinate beyond the range of a double (1e999) is no finite number
want_exit=1
want_msg="position y='1e999' is not a finite number"
run() {
    printf '<pnml><net id="n"><place id="p"><graphics><position x="0" y="1e999"/></graphics></place></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
