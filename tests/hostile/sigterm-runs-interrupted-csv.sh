# SIGTERM during pn-run --runs N -f csv: the finished runs' statistics, and
# a last row "interrupted,K"; status 143
want_exit=0
working() {
    if [ -d /proc/$pid/task ]; then [ "$(ls /proc/$pid/task | wc -l)" -gt 1 ]
    else sleep 1; fi
}
run() {
    loop_net loop.pnml
    signal_when TERM working "$BIN/pn-run" -q -j 2 -f csv --runs 100000000 \
        --max-steps 1000 loop.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 143 ] || { echo "status $(cat status), wanted 143"; return 1; }
    k=$(sed -n 's/^interrupted,\([0-9]*\),,,,,,,$/\1/p' out)
    [ -n "$k" ] || { echo "no interrupted row"; cat out; return 1; }
    grep -q "^steps,$k," out || { echo "the steps row is not over $k runs"; cat out; return 1; }
}
