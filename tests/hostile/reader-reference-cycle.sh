# the cycle check of reference chains stays
want_exit=1
want_msg='part of a cycle of references [PN_EREFCYCLE]'
run() {
    printf '<pnml><net id="n"><page id="g">\n<referencePlace id="r0" ref="r1"/>\n<referencePlace id="r1" ref="r0"/>\n</page></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
