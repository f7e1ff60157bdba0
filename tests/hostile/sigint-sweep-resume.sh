# SIGINT during pn-sweep -o FILE: the points finished are written whole,
# pn-sweep dies of the signal (status 130), and --resume finishes the file
# as one uninterrupted sweep writes it
want_exit=0
want_msg='--resume goes on'
S="--param warps=1:60 --runs 10 --count t0 --quiet"
# COND: two points are in the file
two_points() { [ "$(grep -c '^1,point,[0-9]*,,1,[0-9]*,count:t0,' part.csv 2>/dev/null)" -ge 2 ]; }
run() {
    signal_when INT two_points "$BIN/pn-sweep" $S --threads 1 -o part.csv
    echo $? >status
}
check() {
    [ "$(cat status)" = 130 ] || { echo "status $(cat status), wanted 130"; return 1; }
    # whole points only: each with its 3 rows, the last line ended
    k=$(grep -c '^1,point,' part.csv)
    [ $((k % 3)) = 0 ] || { echo "$k point rows: a point cut short"; return 1; }
    [ "$k" -lt 180 ] || { echo "not interrupted midway"; return 1; }
    [ -z "$(tail -c 1 part.csv)" ] || { echo "the last line is cut"; return 1; }
    "$BIN/pn-sweep" $S --threads 2 --resume -o part.csv || return 1
    "$BIN/pn-sweep" $S --threads 2 -o full.csv || return 1
    cmp -s part.csv full.csv || { echo "the resumed file differs"; return 1; }
}
