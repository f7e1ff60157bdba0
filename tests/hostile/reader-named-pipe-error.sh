# a net with an error read from a named pipe: the position comes from the
# parser (it hung, reopening the pipe to find the column)
want_exit=1
want_msg="fifo:2:37: initial marking 'three': not an integer"
run() {
    mkfifo fifo || return 99
    printf '<pnml><net id="n"><page id="g">\n<place id="p"><initialMarking><text>three</text></initialMarking></place>\n</page></net></pnml>\n' > fifo &
    timeout 20 "$BIN/pn-info" fifo
}
