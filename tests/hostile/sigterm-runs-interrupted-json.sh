# SIGTERM during pn-run --runs N -f json: "runs" is the count finished,
# with "interrupted": true and "requested": N; status 143
want_exit=0
working() {
    if [ -d /proc/$pid/task ]; then [ "$(ls /proc/$pid/task | wc -l)" -gt 1 ]
    else sleep 1; fi
}
run() {
    loop_net loop.pnml
    signal_when TERM working "$BIN/pn-run" -q -j 2 -f json --runs 100000000 \
        --max-steps 1000 loop.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 143 ] || { echo "status $(cat status), wanted 143"; return 1; }
    grep -q '^{"runs": [0-9]*, "interrupted": true, "requested": 100000000, ' out ||
        { echo "no interrupted marker"; cat out; return 1; }
    tail -1 out | grep -q '^}$' || { echo "the JSON is not closed"; return 1; }
}
