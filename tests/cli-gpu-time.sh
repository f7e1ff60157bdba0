#!/bin/sh
# pn-gen-gpu --stochastic: the GPU warp net with time.  One warp alone
# takes on average exactly its steps in the step net (pn-solve's mean time
# to absorption against pn-run's step count, and the closed form of
# doc/wpnm.md), whatever the stages of a latency; the simulation's
# interval holds it; two warps take longer than their steps; the options.
. "${srcdir:-tests}/lib.sh"
GEN="$BIN/pn-gen-gpu"

# mtta FILE: pn-solve's mean time to absorption of FILE
mtta() {
    "$BIN/pn-solve" -q "$1" |
        awk '/^mean time to absorption:/ {print $5}'
}
# same A B: A and B within 1e-9, relatively
same() {
    awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
        exit !(a != "" && d <= 1e-9 * (b > 1 ? b : 1)) }'
}

# one warp: xa xs xg l1 l2 and the closed form 4 xa + (5 + l2) xs +
# (5 + l1) xg + 1
for k in "2 1 1 4 2 25" "3 2 1 20 2 52" "0 0 0 20 2 1" "1 0 2 0 3 15"; do
    set -- $k
    opts="-w 1 -a $1 --shared $2 -g $3 --l1 $4 --l2 $5"
    $GEN $opts > "$TMP/step.xml" || bad "pn-gen-gpu $opts"
    steps=$("$BIN/pn-run" "$TMP/step.xml" | awk '$1 == "steps:" {print $2}')
    if [ "$steps" = "$6" ]; then ok; else bad "$opts: $steps steps, wanted $6"; fi
    for st in "" "--stages 1" "--stages 3"; do
        $GEN $opts --stochastic $st > "$TMP/t.xml" || bad "$opts $st"
        m=$(mtta "$TMP/t.xml")
        if same "$m" "$steps"; then ok
        else bad "$opts --stochastic $st: mean time $m, wanted $steps"; fi
    done
done

# the timing is in the file: 3 immediate selections a warp, the rest
# exponential; pn-info shows the generator's parameters
$GEN -w 2 -a 2 --shared 1 -g 1 --l1 4 --stochastic --stages 2 > "$TMP/w2.xml"
expect 0 "$BIN/pn-info" "$TMP/w2.xml"
has "$TMP/out" "timing:      25 timed (exponential), 6 immediate"
has "$TMP/out" "stochastic 1, stages 2"
has "$TMP/out" "timed"
$GEN -w 2 -a 2 --shared 1 -g 1 --l1 4 > "$TMP/w2s.xml"
expect 0 "$BIN/pn-info" "$TMP/w2s.xml"
lacks "$TMP/out" "immediate"

# two warps on two schedulers: 25 steps in the step net (they run side by
# side), but on average the later of two random ends, above 25
m=$(mtta "$TMP/w2.xml")
if awk -v m="$m" 'BEGIN { exit !(m > 26 && m < 32) }'; then ok
else bad "two warps: mean time $m"; fi

# the simulation's interval holds the exact mean (seed fixed)
$GEN -w 1 -a 2 --shared 1 -g 1 --l1 4 --l2 2 --stochastic > "$TMP/one.xml"
expect 0 "$BIN/pn-run" --semantics stochastic -s 3 -f csv "$TMP/one.xml"
if awk -F, '$1 == "absorption" { exit !($5 <= 25 && 25 <= $6) }' \
        "$TMP/out"; then ok
else bad "the interval misses 25"; cat "$TMP/out" >&2; fi

# options: stages need time; load slots and hits would race; a bad count
expect 2 $GEN --stages 2
has "$TMP/err" "stages needs stochastic"
expect 2 $GEN --stochastic --mlp 2
has "$TMP/err" "issue choices would race"
expect 2 $GEN --stochastic --global 2 --l1-hits 1
expect 2 $GEN --stochastic --stages 0
expect 0 $GEN --help
has "$TMP/out" "--stochastic"
has "$TMP/out" "--stages K"
finish
