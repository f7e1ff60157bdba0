# SIGTERM during pn-run --runs N -f json: JSON Lines of the result schema,
# "runs" the count finished, "requested" N; status 143
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
    grep -q '"measure": "steps", "requested": 100000000, "runs": [0-9]*, ' out ||
        { echo "no steps row with the runs finished"; cat out; return 1; }
    grep -q '"runs": 100000000' out && { echo "every run finished?"; return 1; }
    tail -1 out | grep -q '}$' || { echo "the last line is not whole"; return 1; }
}
