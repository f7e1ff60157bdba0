# -o onto a FIFO writes into it (a reader gets the net); the FIFO stays
want_exit=0
run() {
    mkfifo pipe
    cat pipe >got &
    "$BIN/pn-convert" -o pipe "$NET"
    st=$?
    wait
    return $st
}
check() {
    [ -p pipe ] || { echo "the FIFO was replaced"; return 1; }
    grep -q '</pnml>' got || { echo "the reader got no net"; return 1; }
}
