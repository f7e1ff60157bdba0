#!/bin/sh
# pn-maxplus from the command line: the vector addition example of the
# paper, the three models, both methods, the PNML bridge through pn-run,
# and bad graphs.
. "${srcdir:-tests}/lib.sh"
VADD="$srcdir/../share/examples/vector-add.dot"

expect 0 "$BIN/pn-maxplus" --help
has "$TMP/out" "Usage: pn-maxplus"
expect 0 "$BIN/pn-maxplus" --version
has "$TMP/out" "pn-maxplus (pn-toolkit)"
expect 2 "$BIN/pn-maxplus" --no-such-option
man_documents_options pn-maxplus

# the README's numbers: t = T = 400, tau = 4
expect 0 "$BIN/pn-maxplus" --set t=400,T=400,tau=4 "$VADD"
has "$TMP/out" "height k: 3"
has "$TMP/out" "r: 804"
expect 0 "$BIN/pn-maxplus" --set t=400,T=400,tau=4 --model naive "$VADD"
has "$TMP/out" "height k: 2"
has "$TMP/out" "r: 800"
expect 0 "$BIN/pn-maxplus" --set t=400 --set T=400 --set tau=4 --method matrix --matrix --path "$VADD"
has "$TMP/out" "nodes in matrix order: 1=c 2=sum 3=a 4=b"
has "$TMP/out" "  (   . 408 804 804 )"
has "$TMP/out" "<1_o, Z^3 1_i>: 804"
has "$TMP/out" "critical path: a -> sum (op 4) -> c"
# serialized: ceil(1000/32) (400 + 31*3 + 4 + 400 + 63*2) = 32 * 1023
expect 0 "$BIN/pn-maxplus" --set t=400,T=400,tau=4 --model serialized -N 1000 --executors 32 --dt 2 --dT 3 "$VADD"
has "$TMP/out" "rounds: ceil(1000 / 32) = 32"
has "$TMP/out" "total: 32736"
expect 0 "$BIN/pn-maxplus" --set t=400,T=400,tau=4 -N 1000 --executors 32 --format json "$VADD"
has "$TMP/out" '"r": 804'
has "$TMP/out" '"total": 25728'
expect 0 sh -c "'$BIN/pn-maxplus' --set t=1,T=1,tau=1 - < '$VADD'"
has "$TMP/out" "r: 3"

# the bridge: pn-run takes r + 1 steps on the event graph
for set in t=5,T=7,tau=3 t=1,T=1,tau=0 t=12,T=2,tau=9; do
    expect 0 "$BIN/pn-maxplus" --set "$set" --pnml "$TMP/k.pnml" "$VADD"
    r=$(sed -n 's/^r: //p' "$TMP/out")
    expect 0 "$BIN/pn-run" "$TMP/k.pnml"
    has "$TMP/out" "steps: $((r + 1))"
done
expect 2 "$BIN/pn-maxplus" --set t=5,T=7.5,tau=3 --pnml "$TMP/bad.pnml" "$VADD"
has "$TMP/err" "integer arc times"
[ -e "$TMP/bad.pnml" ] && bad "a refused event graph was written" || ok

# bad graphs and options
printf 'digraph g { a -> b [time=1]; b -> c [time=1]; c -> b [time=1]; }\n' > "$TMP/cyc.dot"
expect 1 "$BIN/pn-maxplus" "$TMP/cyc.dot"
has "$TMP/err" "is on a cycle"
expect 1 "$BIN/pn-maxplus" "$VADD"
has "$TMP/err" "unbound symbol 'T'"
has "$TMP/err" "T=VALUE"
has "$TMP/err" "--set NAME=VALUE"
printf 'digraph g { a -> b [time="-1"]; }\n' > "$TMP/neg.dot"
expect 1 "$BIN/pn-maxplus" "$TMP/neg.dot"
has "$TMP/err" "negative time"
printf 'digraph g { a -> b; }\n' > "$TMP/no.dot"
expect 1 "$BIN/pn-maxplus" "$TMP/no.dot"
has "$TMP/err" "has no time attribute"
printf 'digraph g { a [role=input]; b [role=input]; a -> b [time=1]; }\n' > "$TMP/noout.dot"
expect 1 "$BIN/pn-maxplus" "$TMP/noout.dot"
has "$TMP/err" "no output node"
expect 1 "$BIN/pn-maxplus" "$TMP/missing.dot"
expect 2 "$BIN/pn-maxplus" --set t "$VADD"
expect 2 "$BIN/pn-maxplus" --model fast "$VADD"
expect 2 "$BIN/pn-maxplus" --executors 0 "$VADD"
expect 2 "$BIN/pn-maxplus" --dt 2 "$VADD"
has "$TMP/err" "belong to --model serialized"
finish
