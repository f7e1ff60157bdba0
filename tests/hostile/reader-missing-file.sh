# a file that does not exist: named, exit 1 (cannot read)
want_exit=1
want_msg='no-such.pnml'
run() { "$BIN/pn-info" no-such.pnml; }
