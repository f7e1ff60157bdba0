# SIGTERM during pn-run --runs N -f csv: the finished runs' statistics, rows
# of the result schema with requested N and runs K < N; status 143
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
    # every run stopped at the step limit: counted apart, none in the statistics
    k=$(sed -n 's/^1,point,0,,1,steps,,,100000000,\([0-9]*\),0,\1,0,0,,,,,,,$/\1/p' out)
    [ -n "$k" ] || { echo "no steps row with the runs finished"; cat out; return 1; }
    [ "$k" -lt 100000000 ] || { echo "$k runs finished?"; return 1; }
    head -1 out | grep -q '^schema,kind,point,' || { echo "no header"; return 1; }
}
