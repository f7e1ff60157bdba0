#!/bin/sh
# pn-sweep --semantics stochastic: each point simulated as pn-run
# --semantics stochastic simulates it, with the point's seed, its
# estimates a row each after the point's columns; the same for any
# --jobs; the GPU net of a sweep is the net with time; the options.
. "${srcdir:-tests}/lib.sh"
G="$srcdir/gspn"
SWEEP="$BIN/pn-sweep -q --semantics stochastic"

# two points of the M/M/1/K queue (K = 5 and 3 free places): point 0's
# rows are pn-run's for the seed in its seed column
cp "$G/mm1k.xml" "$TMP/q.xml"
expect 0 $SWEEP -s 7 --accuracy 0.1 -p p_init:Free=5,3 "$TMP/q.xml"
cp "$TMP/out" "$TMP/sweep.csv"
has "$TMP/sweep.csv" "schema,kind,point,seed,net,p_init:Free,measure,id,time,mean,low,high"
for k in 0 1; do
    seed=$(awk -F, -v k=$k '$3 == k { print $4; exit }' "$TMP/sweep.csv")
    awk -F, -v k=$k 'NR > 1 && $3 == k { print $7 "," $8 "," $9 "," $10 "," $11 "," $12 }' \
        "$TMP/sweep.csv" > "$TMP/got$k"
    if [ -s "$TMP/got$k" ]; then ok; else bad "point $k has no rows"; fi
    [ $k -eq 0 ] || continue
    expect 0 "$BIN/pn-run" --semantics stochastic -s "$seed" --accuracy 0.1 \
        -f csv "$TMP/q.xml"
    tail -n +2 "$TMP/out" > "$TMP/want$k"
    if cmp -s "$TMP/want$k" "$TMP/got$k"; then ok
    else bad "point $k differs from pn-run -s $seed"; diff "$TMP/want$k" "$TMP/got$k" >&2; fi
done
# point 1 has its own seed, and another net
if ! cmp -s "$TMP/got0" "$TMP/got1"; then ok; else bad "the points are alike"; fi
# the same rows for any --jobs; JSON Lines carry the point's parameters
expect 0 $SWEEP -s 7 --accuracy 0.1 -j 1 -p p_init:Free=5,3 "$TMP/q.xml"
if cmp -s "$TMP/out" "$TMP/sweep.csv"; then ok; else bad "-j 1 differs"; fi
expect 0 $SWEEP -s 7 --accuracy 0.1 -f json -p p_init:Free=3 "$TMP/q.xml"
has "$TMP/out" '{"schema":1,"kind":"estimate","point":0,"seed":7,"params":{"net":'
has "$TMP/out" '"p_init:Free":3},"measure":"throughput","id":"T0","time":null,"mean":'

# the GPU net is the one with time: one warp's interval around its steps
# (4 xa + (5 + l1) xg + 1 = 14 and 19), at two latencies
expect 0 $SWEEP -s 3 -p warps=1 -p arith=1 -p shared=0 -p global=1 -p l1=4,9
has "$TMP/out" "schema,kind,point,seed,warps,arith,shared,global,l1,measure,id,time,mean,low,high"
if awk -F, '$10 == "absorption" { want = $9 == 4 ? 14 : 19
        if ($14 <= want && want <= $15) c++ } END { exit c != 2 }' "$TMP/out"
then ok; else bad "the intervals miss the steps"; cat "$TMP/out" >&2; fi
# transient estimates at given times
expect 0 $SWEEP -s 3 --time 0.5,1 -p p_init:Free=5 "$TMP/q.xml"
has "$TMP/out" ",5,tokens,P0,0.5,"
has "$TMP/out" ",5,firings,T1,1,"

# options: the stochastic ones need the semantics; what a sweep of runs
# does is not for estimates
expect 2 "$BIN/pn-sweep" --time 1 -p warps=1
has "$TMP/err" "need --semantics stochastic"
expect 2 $SWEEP --per-run -p warps=1
has "$TMP/err" "leave out"
expect 2 $SWEEP -c t0 -p warps=1
expect 2 $SWEEP --resume -o "$TMP/r.csv" -p warps=1
expect 2 $SWEEP --accuracy 0 -p warps=1
man_documents_options pn-sweep
finish
