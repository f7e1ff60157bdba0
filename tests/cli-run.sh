#!/bin/sh
# pn-gen-gpu and pn-run from the command line: options, exit codes,
# messages, reproducibility, threads, traces, the example workloads, and
# generated nets against the official grammar.
. "${srcdir:-tests}/lib.sh"
EX="$srcdir/../share/examples"
GRAMMAR="${PN_CORPUS:-}/grammar/ptnet.pntd"

for prog in pn-run pn-gen-gpu; do
    expect 0 "$BIN/$prog" --help
    has "$TMP/out" "Usage: $prog"
    has "$TMP/out" "Exit status"
    expect 0 "$BIN/$prog" --version
    has "$TMP/out" "$prog (pn-toolkit)"
    expect 2 "$BIN/$prog" --no-such-option
    man_documents_options "$prog"
done

# one default semantics each, on purpose: each program's help and man page
# name the other's default and say why they differ
expect 0 "$BIN/pn-run" --help
has "$TMP/out" "maximal (default: a step is a clock tick)"
has "$TMP/out" "interleaving (pn-reach's default"
has "$srcdir/../share/man/pn-run.1" ".SS Why maximal steps by default"
has "$srcdir/../share/man/pn-run.1" "pn-reach \\-\\-semantics maximal"
has "$srcdir/../share/man/pn-reach.1" ".SS Why interleaving by default"
has "$srcdir/../share/man/pn-reach.1" "pn-run \\-\\-semantics interleaving"

# --- pn-gen-gpu --------------------------------------------------------
expect 0 "$BIN/pn-gen-gpu" --warps 8 --arith 0 --shared 0 --global 20 -o "$TMP/k.pnml"
expect 0 "$BIN/pn-info" "$TMP/k.pnml"
has "$TMP/out" "places:      146"
has "$TMP/out" "transitions: 121"
expect 0 sh -c "'$BIN/pn-gen-gpu' --warps 2 > '$TMP/two.pnml'"
expect 0 "$BIN/pn-info" "$TMP/two.pnml"
has "$TMP/out" "inhibitor 8"
# bad values: exit 2, a message, nothing written
for args in "--warps 0" "--warps -3" "--warps x" "--schedulers 0" \
            "--arith 1.5" "--global 99999999999999999999" "--l1 -1" \
            "--threads-per-block 64" "--warps 4 --threads-per-block 64 --blocks 2 --sms 1" \
            "--dialect nope" "extra"; do
    expect 2 "$BIN/pn-gen-gpu" $args -o "$TMP/bad.pnml"
    [ -s "$TMP/err" ] && ok || bad "no message for: $args"
    [ -e "$TMP/bad.pnml" ] && bad "output written for: $args" || ok
done
has "$TMP/err" "unexpected argument 'extra'"
expect 2 "$BIN/pn-gen-gpu" --warps 0
has "$TMP/err" "--warps: '0' is not a whole number from 1 to"
expect 2 "$BIN/pn-gen-gpu" --schedulers -2
has "$TMP/err" "--schedulers: '-2' is not a whole number from 1 to"
# workloads: bad files name the line; nothing written
printf '0,1,2,3\n1,1,2\n' > "$TMP/w.csv"
expect 1 "$BIN/pn-gen-gpu" --workload "$TMP/w.csv" -o "$TMP/bad.pnml"
has "$TMP/err" "$TMP/w.csv:2: expected 4 comma-separated fields"
[ -e "$TMP/bad.pnml" ] && bad "output written for a bad workload" || ok
expect 1 "$BIN/pn-gen-gpu" --workload "$TMP/none.csv"
printf '0,1,0,0\n1,0,0,2\n' > "$TMP/w.csv"
expect 2 "$BIN/pn-gen-gpu" --warps 3 --workload "$TMP/w.csv"
expect 0 "$BIN/pn-gen-gpu" --workload "$TMP/w.csv" -o "$TMP/w.pnml"
expect 0 "$BIN/pn-run" --count w0_t7,w1_t9 "$TMP/w.pnml"
has "$TMP/out" "count w0_t7: 1"
has "$TMP/out" "count w1_t9: 2"
# the parameters recorded in the net, read back by pn-info
expect 0 "$BIN/pn-gen-gpu" --warps 3 --l1 7 --arith 5 -o "$TMP/p.pnml"
expect 0 "$BIN/pn-info" --format json "$TMP/p.pnml"
has "$TMP/out" '"generator": {"family": "gpu", "warps": 3, "schedulers": 2, "arith": 5, "shared": 4, "global": 4, "l1": 7, "l2": 2}'
expect 0 "$BIN/pn-info" "$TMP/p.pnml"
has "$TMP/out" "generator:   gpu (warps 3, schedulers 2, arith 5, shared 4, global 4, l1 7, l2 2)"
expect 0 "$BIN/pn-info" --format json "$srcdir/pnml/valid/sample/net.pnml"
lacks "$TMP/out" '"generator"'
# launch: ceil(256/32) * ceil(160/80) = 16 warps
expect 0 "$BIN/pn-gen-gpu" --threads-per-block 256 --blocks 160 --sms 80 -o "$TMP/l.pnml"
expect 0 "$BIN/pn-info" --format json "$TMP/l.pnml"
has "$TMP/out" "\"places\": $((2 + 18 * 16))"
# pipelined issue: 19 places and 16 transitions per warp with --la; one
# warp of 10 arithmetic instructions takes (4 + la) steps each, plus t16
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 10 --shared 0 --global 0 --pipelined --la 6 -o "$TMP/pl.pnml"
expect 0 "$BIN/pn-info" "$TMP/pl.pnml"
has "$TMP/out" "places:      21"
has "$TMP/out" "transitions: 17"
expect 0 "$BIN/pn-run" "$TMP/pl.pnml"
has "$TMP/out" "steps: 101"
expect 2 "$BIN/pn-gen-gpu" --la 3 -o "$TMP/bad.pnml"
has "$TMP/err" "la needs pipelined"
[ -e "$TMP/bad.pnml" ] && bad "output written for --la alone" || ok
# the constructs of doc/wpnm.md ("Blocks, transactions, bandwidth and
# caches"): one warp's closed form, ceil(B/R) (X1 + 2) steps for uniform
# blocks with a scheduler for every warp (X1 = 4*3 + 7*1 + 25*2 + 1 = 70:
# 3 waves of 72), the record pn-info reads, pictures and the state space
expect 0 "$BIN/pn-gen-gpu" --resident 2 --blocks 5 --warps-per-block 2 --arith 3 --shared 1 --global 2 --schedulers 8 -o "$TMP/blk.pnml"
expect 0 "$BIN/pn-run" --runs 5 "$TMP/blk.pnml"
has "$TMP/out" "min 216  median 216  max 216"
expect 0 "$BIN/pn-gen-gpu" --threads-per-block 64 --blocks 10 --sms 2 --resident 2 --arith 3 --shared 1 --global 2 --schedulers 8 -o "$TMP/blk2.pnml"
expect 0 "$BIN/pn-run" "$TMP/blk2.pnml"
has "$TMP/out" "steps: 216"
expect 0 "$BIN/pn-info" "$TMP/blk2.pnml"
has "$TMP/out" "resident 2, sm-blocks 5, warps-per-block 2)"
has "$TMP/out" "places:      $((3 + 3 * 2 + 18 * 4))"
expect 0 "$BIN/pn-dot" -o "$TMP/blk.svg" "$TMP/blk.pnml"
has "$TMP/blk.svg" "b1_end"
# the timeline has a row for the block scheduler after the warps
expect 0 "$BIN/pn-run" --trace "$TMP/blk.trace" "$TMP/blk.pnml"
expect 0 "$BIN/pn-dot" --trace "$TMP/blk.trace" --timeline -o "$TMP/blk-tl.svg" "$TMP/blk.pnml"
has "$TMP/blk-tl.svg" ">blocks<"
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 0 --shared 0 --global 3 --transactions 4 -o "$TMP/tx.pnml"
expect 0 "$BIN/pn-run" "$TMP/tx.pnml"
has "$TMP/out" "steps: $((3 * (4 + 4 + 20) + 1))"
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 0 --shared 0 --global 3 --transactions 4 --inflight 4 -o "$TMP/bw.pnml"
expect 0 "$BIN/pn-run" "$TMP/bw.pnml"
has "$TMP/out" "steps: $((3 * (5 + 4 + 20) + 1))"
expect 0 "$BIN/pn-info" "$TMP/bw.pnml"
has "$TMP/out" "transactions 4, inflight 4)"
# load slots: 8 accesses overlapped, 3 xg + l1 + 2 steps; --mlp 1 is the paper's
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 0 --shared 0 --global 8 --mlp 8 -o "$TMP/mlp.pnml"
expect 0 "$BIN/pn-run" "$TMP/mlp.pnml"
has "$TMP/out" "steps: $((3 * 8 + 20 + 2))"
expect 0 "$BIN/pn-info" "$TMP/mlp.pnml"
has "$TMP/out" "l2 2, mlp 8)"
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 0 --shared 0 --global 8 --mlp 1 -o "$TMP/mlp.pnml"
expect 0 "$BIN/pn-run" "$TMP/mlp.pnml"
has "$TMP/out" "steps: $((8 * 25 + 1))"
expect 2 "$BIN/pn-gen-gpu" --mlp 2 --inflight 4
has "$TMP/err" "mlp 2 goes with the paper's global frame only"
# barriers: one warp takes 2 steps a barrier more; the net runs in every program
expect 0 "$BIN/pn-gen-gpu" --warps 2 --schedulers 2 --warps-per-block 2 --barriers 3 --arith 8 --shared 0 --global 0 -o "$TMP/bar.pnml"
expect 0 "$BIN/pn-run" "$TMP/bar.pnml"
has "$TMP/out" "steps: $((4 * 8 + 1 + 2 * 3))"
expect 0 "$BIN/pn-info" "$TMP/bar.pnml"
has "$TMP/out" "barriers 3, barrier-warps 2)"
expect 0 "$BIN/pn-struct" "$TMP/bar.pnml"
expect 0 "$BIN/pn-reach" "$TMP/bar.pnml"
expect 0 "$BIN/pn-dot" -o "$TMP/bar.svg" "$TMP/bar.pnml"
expect 2 "$BIN/pn-gen-gpu" --warps 3 --warps-per-block 2 --barriers 1
has "$TMP/err" "whole blocks of warps-per-block"
expect 2 "$BIN/pn-gen-gpu" --barriers 1 --l1-hits 1
has "$TMP/err" "barriers do not go with l1-hits"
expect 0 "$BIN/pn-gen-gpu" --warps 1 --arith 0 --shared 0 --global 6 --l1-hits 2 --l2-hits 1 --l2-hit-latency 12 -o "$TMP/hit.pnml"
expect 0 "$BIN/pn-run" --runs 3 "$TMP/hit.pnml"
has "$TMP/out" "min $((2 * 10 + 17 + 3 * 25 + 1))  median"
expect 0 "$BIN/pn-gen-gpu" --resident 2 --blocks 3 --warps-per-block 1 --arith 1 --shared 0 --global 2 --l1 2 --transactions 2 --inflight 2 --l1-hits 1 --l1-hit-latency 1 --schedulers 1 -o "$TMP/rs.pnml"
expect 0 "$BIN/pn-reach" "$TMP/rs.pnml"
has "$TMP/out" "dead:        1 dead marking"
# swept as parameters
expect 0 "$BIN/pn-sweep" --param warps=1 --param arith=0 --param shared=0 --param global=3 --param transactions=1,4 --runs 1
has "$TMP/out" ",0,0,3,1,steps,,,1,1,1,0,0,1,76.000000,"
has "$TMP/out" ",0,0,3,4,steps,,,1,1,1,0,0,1,85.000000,"
# a device's specification: sm_80's schedulers and latencies in cycles
# (DRAM 450, shared 29): one warp takes 4 + (5 + 29) + (5 + 450) + 1 steps
expect 0 "$BIN/pn-gen-gpu" --arch sm_80 --warps 1 --arith 1 --shared 1 --global 1 -o "$TMP/arch.pnml"
expect 0 "$BIN/pn-run" "$TMP/arch.pnml"
has "$TMP/out" "steps: 494"
expect 0 "$BIN/pn-info" "$TMP/arch.pnml"
has "$TMP/out" "schedulers 4, arith 1, shared 1, global 1, l1 450, l2 29)"
expect 0 "$BIN/pn-gen-gpu" --arch 8.0 --l1 100 --warps 1 --arith 1 --shared 1 --global 1 -o "$TMP/arch.pnml"
expect 0 "$BIN/pn-run" "$TMP/arch.pnml"
has "$TMP/out" "steps: 144"
expect 2 "$BIN/pn-gen-gpu" --arch volta
has "$TMP/err" "arch: 'volta' is not a compute capability"
# what does not go together: exit 2, a message, nothing written
for args in "--resident 2" "--resident 2 --blocks 4" "--warps-per-block 2" \
            "--resident 2 --blocks 4 --warps-per-block 2 --warps 4" \
            "--transactions 4 --inflight 2" "--l1-hits 3 --l2-hits 2" \
            "--inflight 0" "--resident 0 --blocks 2 --warps-per-block 1" \
            "--mlp 0" "--mlp 33" "--mlp 2 --transactions 2"; do
    expect 2 "$BIN/pn-gen-gpu" $args -o "$TMP/bad.pnml"
    [ -s "$TMP/err" ] && ok || bad "no message for: $args"
    [ -e "$TMP/bad.pnml" ] && bad "output written for: $args" || ok
done
expect 2 "$BIN/pn-gen-gpu" --transactions 4 --inflight 2
has "$TMP/err" "inflight 2 is below transactions 4"
# more than 64 warps: a warning, silenced by --quiet
expect 0 "$BIN/pn-gen-gpu" --warps 65 -o "$TMP/big.pnml"
has "$TMP/err" "warning: 65 warps"
expect 0 "$BIN/pn-gen-gpu" --warps 65 --quiet -o "$TMP/big.pnml"
[ -s "$TMP/err" ] && bad "--quiet still warned" || ok
# dialects: strict refuses (no inhibitor arcs in the grammar), pipe works
expect 3 "$BIN/pn-gen-gpu" --warps 2 --dialect strict -o "$TMP/s.pnml"
has "$TMP/err" "strict dialect cannot express inhibitor arcs"
[ -e "$TMP/s.pnml" ] && bad "strict left a file" || ok
expect 0 "$BIN/pn-gen-gpu" --warps 2 --dialect pipe -o "$TMP/p.xml"
expect 0 "$BIN/pn-run" "$TMP/p.xml"
expect 0 "$BIN/pn-run" "$TMP/two.pnml"
cp "$TMP/out" "$TMP/two.out"
expect 0 "$BIN/pn-run" "$TMP/p.xml"
if cmp -s "$TMP/out" "$TMP/two.out"; then ok; else bad "pipe dialect runs differently"; fi
# the generated net validates once the three inhibitor encodings are removed
if [ -n "${JING:-}" ] && [ -f "$GRAMMAR" ]; then
    for w in 1 8 64; do
        "$BIN/pn-gen-gpu" --warps $w --quiet -o "$TMP/g.pnml"
        sed -e 's/ type="inhibitor"//' -e '/<type value="inhibitor"\/>/d' \
            -e '/<arctype>/,/<\/arctype>/d' "$TMP/g.pnml" > "$TMP/g2.pnml"
        if "$JING" -i "$GRAMMAR" "$TMP/g2.pnml" > "$TMP/jing" 2>/dev/null; then ok; else
            bad "generated net ($w warps) is not valid"; grep -v warning "$TMP/jing" | head -3 >&2; fi
    done
else
    echo "jing or the grammar is missing: validation skipped"
fi

# --- pn-run ------------------------------------------------------------
expect 0 "$BIN/pn-run" "$TMP/k.pnml"
has "$TMP/out" "steps: 507"
has "$TMP/out" "end: dead marking"
expect 0 sh -c "'$BIN/pn-run' - < '$TMP/k.pnml'"
has "$TMP/out" "steps: 507"
expect 0 "$BIN/pn-run" --marking --count t0 "$TMP/k.pnml"
has "$TMP/out" "marking: p0=2"
expect 0 "$BIN/pn-run" --counts --format csv "$TMP/k.pnml"
has "$TMP/out" "schema,kind,point,run,seed,measure,end,value,requested,runs,dead,limit,overflow,n,mean,sd,min,median,max,ci_low,ci_high"
has "$TMP/out" "1,run,0,0,1,steps,dead,507,"
has "$TMP/out" "1,run,0,0,1,count:w7_t16,dead,1,"
expect 0 "$BIN/pn-run" --format json --count t0 "$TMP/k.pnml"
has "$TMP/out" '{"schema": 1, "kind": "run", "point": 0, "run": 0, "seed": 1, "measure": "steps", "end": "dead", "value": 507}'
expect 2 "$BIN/pn-run" --count nosuch "$TMP/k.pnml"
has "$TMP/err" "'nosuch' is not a transition"
expect 2 "$BIN/pn-run" --format xml "$TMP/k.pnml"
expect 2 "$BIN/pn-run" --seed -1 "$TMP/k.pnml"
expect 2 "$BIN/pn-run" --runs 0 "$TMP/k.pnml"
expect 2 "$BIN/pn-run" --runs 2 --trace "$TMP/t" "$TMP/k.pnml"
expect 1 "$BIN/pn-run" "$TMP/missing.pnml"
# one warp: the formula
"$BIN/pn-gen-gpu" --warps 1 --arith 3 --shared 2 --global 2 -o "$TMP/one.pnml"
expect 0 "$BIN/pn-run" --seed 99 "$TMP/one.pnml"
has "$TMP/out" "steps: $((4*3 + 7*2 + 25*2 + 1))"
# same seed, same result; any --jobs gives the same statistics
"$BIN/pn-gen-gpu" --warps 6 --schedulers 2 --arith 4 --shared 2 --global 2 -o "$TMP/m.pnml"
expect 0 "$BIN/pn-run" --seed 5 --counts "$TMP/m.pnml"; cp "$TMP/out" "$TMP/a"
expect 0 "$BIN/pn-run" --seed 5 --counts "$TMP/m.pnml"
cmp -s "$TMP/out" "$TMP/a" && ok || bad "same seed, different run"
expect 0 "$BIN/pn-run" --runs 40 --jobs 1 --count t0 --format csv "$TMP/m.pnml"; cp "$TMP/out" "$TMP/j1"
expect 0 "$BIN/pn-run" --runs 40 --jobs 2 --count t0 --format csv "$TMP/m.pnml"; cp "$TMP/out" "$TMP/j2"
expect 0 "$BIN/pn-run" --runs 40 --jobs 7 --count t0 --format csv "$TMP/m.pnml"
cmp -s "$TMP/j1" "$TMP/j2" && cmp -s "$TMP/j1" "$TMP/out" && ok || bad "--jobs changes the results"
has "$TMP/j1" "schema,kind,point,run,seed,measure,end,value,requested,runs,dead,limit,overflow,n,mean,"
has "$TMP/j1" "1,point,0,,1,count:t0,,,40,40,40,0,0,40,"
expect 0 "$BIN/pn-run" --runs 200 --jobs 2 "$TMP/k.pnml"
has "$TMP/out" "runs: 200 (seed 1): dead 200, limit 0, overflow 0"
has "$TMP/out" "mean 507.000  sd 0.000  min 507  median 507  max 507"
expect 0 "$BIN/pn-run" --runs 3 --format json "$TMP/k.pnml"
has "$TMP/out" '"measure": "steps", "requested": 3, "runs": 3, "dead": 3, "limit": 0, "overflow": 0, "n": 3, "mean": 507.000000'
# reference engine gives the same run
expect 0 "$BIN/pn-run" --seed 3 --counts "$TMP/m.pnml"; cp "$TMP/out" "$TMP/inc"
expect 0 "$BIN/pn-run" --seed 3 --counts --reference "$TMP/m.pnml"
cmp -s "$TMP/out" "$TMP/inc" && ok || bad "reference engine differs"
# interleaving: one firing per step
expect 0 "$BIN/pn-run" --semantics interleaving "$TMP/one.pnml"
steps=$(sed -n 's/^steps: //p' "$TMP/out"); firings=$(sed -n 's/^firings: //p' "$TMP/out")
[ "$steps" = "$firings" ] && ok || bad "interleaving: $steps steps, $firings firings"
# traces
expect 0 "$BIN/pn-run" --trace "$TMP/run.trace" --snapshot 100 "$TMP/k.pnml"
has "$TMP/run.trace" "# pn-run trace 2"
has "$TMP/run.trace" "E dead 507"
has "$TMP/run.trace" "M 0 p0=2 active=8"
[ "$(grep -c '^S ' "$TMP/run.trace")" = 507 ] && ok || bad "trace has not 507 steps"
[ "$(grep -c '^M ' "$TMP/run.trace")" = 6 ] && ok || bad "trace snapshots"
grep '^S 1 ' "$TMP/run.trace" | grep -q 'w0_t4' && ok || bad "step 1 lacks w0_t4"
ls "$TMP" | grep -q 'tmp' && bad "temporary trace left" || ok
# no dead marking: the step limit, exit 4
cat > "$TMP/loop.pnml" <<'XML'
<pnml><net id="n"><place id="p"><initialMarking><text>1</text></initialMarking></place>
<transition id="t"/><arc id="a" source="p" target="t"/><arc id="b" source="t" target="p"/></net></pnml>
XML
expect 4 "$BIN/pn-run" --max-steps 50 "$TMP/loop.pnml"
has "$TMP/out" "steps: 50"
has "$TMP/err" "no dead marking within 50 steps"
has "$TMP/err" "pn-reach says whether one is reachable"
expect 4 "$BIN/pn-run" --max-steps 50 --runs 3 "$TMP/loop.pnml"
# limited runs are counted apart and left out of the statistics ...
has "$TMP/out" "dead 0, limit 3, overflow 0"
has "$TMP/out" "steps                    n 0  mean -"
expect 4 "$BIN/pn-run" --max-steps 50 --runs 3 -f csv "$TMP/loop.pnml"
has "$TMP/out" "1,point,0,,1,steps,,,3,3,0,3,0,0,,,,,,,"
# ... unless asked for
expect 4 "$BIN/pn-run" --max-steps 50 --runs 3 --include-limited -f csv "$TMP/loop.pnml"
has "$TMP/out" "1,point,0,,1,steps,,,3,3,0,3,0,3,50.000000,0.000000,50,50,50,50.000000,50.000000"
# --steps N: exactly N steps, and that is success
expect 0 "$BIN/pn-run" --steps 50 "$TMP/loop.pnml"
has "$TMP/out" "steps: 50"
has "$TMP/out" "step limit reached (--steps)"
[ -s "$TMP/err" ] && bad "--steps complained" || ok
expect 0 "$BIN/pn-run" --steps 50 --runs 4 -f json "$TMP/loop.pnml"
has "$TMP/out" '"measure": "steps", "requested": 4, "runs": 4, "dead": 0, "limit": 4, "overflow": 0, "n": 4, "mean": 50.000000'
expect 2 "$BIN/pn-run" --steps 50 --max-steps 60 "$TMP/loop.pnml"
expect 2 "$BIN/pn-run" --per-run "$TMP/loop.pnml"
# --per-run: a row for each run and measure, then the point's rows
expect 0 "$BIN/pn-run" --runs 4 --per-run -f csv "$TMP/m.pnml"
[ "$(grep -c ',run,0,' "$TMP/out")" = 8 ] && ok || bad "--per-run: not 4 x 2 run rows"
[ "$(grep -c ',point,0,' "$TMP/out")" = 2 ] && ok || bad "--per-run: not 2 point rows"
# confidence intervals never go below zero: counts of 0 and 1000
cat > "$TMP/skew.pnml" <<'XML'
<pnml><net id="n"><place id="s"><initialMarking><text>1</text></initialMarking></place>
<place id="q"/><transition id="a"/><transition id="b"/>
<arc id="1" source="s" target="a"/><arc id="2" source="s" target="b"/>
<arc id="3" source="b" target="q"/></net></pnml>
XML
expect 0 "$BIN/pn-run" --runs 3 --count b --semantics interleaving -f csv --seed 4 "$TMP/skew.pnml"
# (0, 0, 1: Student's t gives [-1.101, 1.768]; the mean of a count is >= 0)
has "$TMP/out" "1,point,0,,4,count:b,,,3,3,3,0,0,3,0.333333,0.577350,0,0,1,0.000000,1.767667"
# an unbounded net: exit 5, the place and the step named
cat > "$TMP/unb.pnml" <<'XML'
<pnml><net id="n"><place id="sink"/><transition id="src"/>
<arc id="a" source="src" target="sink"><inscription><text>4611686018427387904</text></inscription></arc></net></pnml>
XML
expect 5 "$BIN/pn-run" "$TMP/unb.pnml"
has "$TMP/err" "place 'sink' would exceed 2^63-1 in step 2"
# empty net, net without transitions
echo '<pnml><net id="e"/></pnml>' > "$TMP/empty.pnml"
expect 0 "$BIN/pn-run" "$TMP/empty.pnml"
has "$TMP/out" "steps: 0"
echo '<pnml><net id="e"><place id="p"><initialMarking><text>3</text></initialMarking></place></net></pnml>' > "$TMP/nt.pnml"
expect 0 "$BIN/pn-run" --marking "$TMP/nt.pnml"
has "$TMP/out" "marking: p=3"

# --- the example workloads: generated and run --------------------------
n=0
for w in "$EX"/*.csv; do
    expect 0 "$BIN/pn-gen-gpu" --workload "$w" -o "$TMP/ex.pnml"
    expect 0 "$BIN/pn-run" --count t0 "$TMP/ex.pnml"
    has "$TMP/out" "end: dead marking"
    n=$((n + 1))
done
[ "$n" -ge 6 ] && ok || bad "only $n example workloads"
# what a run cannot take into account is said once, before the results
expect 4 "$BIN/pn-run" --max-steps 100 "$srcdir/pnml/valid/tapaal-timed/net.pnml"
has "$TMP/err" "pn-run: warning:"
has "$TMP/err" "ignored: 1 time interval"
[ "$(grep -c 'ignored:' "$TMP/err")" = 1 ] && ok || bad "the timing warning is not said once"
finish
