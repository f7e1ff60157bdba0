# SIGINT during pn-run --runs N: the runs under way finish, the statistics
# of the finished runs are printed, marked interrupted with their count,
# and pn-run dies of the signal (status 130)
want_exit=0
want_msg='runs finished'
# COND: the worker threads are running (without /proc: a second)
working() {
    if [ -d /proc/$pid/task ]; then [ "$(ls /proc/$pid/task | wc -l)" -gt 1 ]
    else sleep 1; fi
}
run() {
    loop_net loop.pnml
    signal_when INT working \
        "$BIN/pn-run" -q -j 2 --runs 100000000 --steps 1000 loop.pnml
    echo $? >status
}
check() {
    [ "$(cat status)" = 130 ] || { echo "status $(cat status), wanted 130"; return 1; }
    k=$(sed -n 's/^runs: \([0-9]*\) of 100000000, interrupted (seed 1): .*/\1/p' out)
    [ -n "$k" ] || { echo "no interrupted marker"; cat out; return 1; }
    grep -q "interrupted: $k of 100000000 runs finished" err ||
        { echo "stderr does not give the count $k"; return 1; }
    grep -q "^steps  *n $k  mean 1000.000 " out || [ "$k" = 0 ] ||
        { echo "no statistics"; cat out; return 1; }
}
