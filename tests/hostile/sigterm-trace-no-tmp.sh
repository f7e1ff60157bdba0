# SIGTERM while pn-run --trace FILE writes: the temporary trace is removed,
# no FILE appears, and pn-run dies of the signal (status 143)
want_exit=0
run() {
    loop_net loop.pnml
    signal_when TERM tmp_exists \
        "$BIN/pn-run" --trace out.trace --max-steps 10000000 loop.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 143 ] || { echo "status $(cat status), wanted 143"; return 1; }
    [ ! -e out.trace ] || { echo "a partial trace was left"; return 1; }
}
