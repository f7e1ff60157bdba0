# standard input is streamed: an error in it is placed by the parser
want_exit=1
want_msg="<stdin>:2:16: unsupported net type: high-level label <hlinitialMarking>"
run() {
    printf '<pnml><net id="n"><page id="g">\n<place id="p"><hlinitialMarking><text>1</text></hlinitialMarking></place>\n</page></net></pnml>\n' | "$BIN/pn-info" -
}
