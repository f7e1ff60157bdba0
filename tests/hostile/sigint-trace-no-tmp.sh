# SIGINT (^C) while pn-run --trace FILE writes: the temporary trace is
# removed and pn-run dies of the signal (status 130)
want_exit=0
run() {
    loop_net loop.pnml
    signal_when INT tmp_exists \
        "$BIN/pn-run" --trace out.trace --max-steps 10000000 loop.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 130 ] || { echo "status $(cat status), wanted 130"; return 1; }
    [ ! -e out.trace ] || { echo "a partial trace was left"; return 1; }
}
