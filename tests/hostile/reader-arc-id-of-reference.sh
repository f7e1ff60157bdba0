# an arc whose id a reference node has is a duplicate id
want_exit=1
want_msg="c.pnml:4:6: duplicate id 'r' (a reference node has it) [PN_EDUPID]"
run() {
    printf '<pnml><net id="n"><page id="g">\n<place id="p"/><transition id="t"/>\n<referencePlace id="r" ref="p"/>\n<arc id="r" source="r" target="t"/>\n</page></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
