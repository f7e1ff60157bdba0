# nan in a TAPAAL attribute position is refused too
want_exit=1
want_msg="position positionY='nan' is not a finite number [PN_EVALUE]"
run() {
    printf '<pnml><net id="n"><place id="p" positionX="1" positionY="nan"/></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
