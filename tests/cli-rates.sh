#!/bin/sh
# PIPE's rates that are expressions of the marking (its RateGrammar.g4:
# "#(P0)*2", + - * / ( ), ceil( floor( cap( ) and its <definition> rate
# parameters: evaluated per marking by pn-solve and pn-run, refused with
# file:line:column when malformed, written back as read.
. "${srcdir:-tests}/lib.sh"

# pipe_net FILE RATE [DEFS [BLOCK]]: a cycle P0 -T0-> P1 -T1-> P0 with 3
# tokens, T0 of rate RATE (single server), T1 of rate 1.5; DEFS goes in
# the net, BLOCK in T0
pipe_net() {
    cat > "$1" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<pnml>
<net id="n" type="P/T net">
${3:-}
<place id="P0"><name><value>P0</value></name><initialMarking><value>Default,3</value></initialMarking></place>
<place id="P1"><name><value>P1</value></name><initialMarking><value>Default,0</value></initialMarking></place>
<transition id="T0"><name><value>T0</value></name>
<rate><value>$2</value></rate>
<timed><value>true</value></timed><infiniteServer><value>${5:-false}</value></infiniteServer><priority><value>1</value></priority>${4:-}
</transition>
<transition id="T1"><name><value>T1</value></name><rate><value>1.5</value></rate><timed><value>true</value></timed><infiniteServer><value>false</value></infiniteServer><priority><value>1</value></priority></transition>
<arc id="a1" source="P0" target="T0"><inscription><value>Default,1</value></inscription></arc>
<arc id="a2" source="T0" target="P1"><inscription><value>Default,1</value></inscription></arc>
<arc id="a3" source="P1" target="T1"><inscription><value>Default,1</value></inscription></arc>
<arc id="a4" source="T1" target="P0"><inscription><value>Default,1</value></inscription></arc>
</net>
</pnml>
XML
}

# ---- evaluated per marking ------------------------------------------------
# T0 at rate 2 per token on P0 is T0 of rate 2 under infinite-server
# semantics: a birth-death chain on k = #P0 with pi_k ~ (1.5/2)^k / k!,
# T1's throughput 1.5 (1 - pi_3)
pipe_net "$TMP/expr.xml" '#(P0)*2'
pipe_net "$TMP/inf.xml" '2' '' '' true
want=$(awk 'BEGIN { s = 0; f = 1; for (k = 0; k <= 3; k++) {
                       if (k) f *= k; p[k] = (0.75 ^ k) / f; s += p[k] }
                   printf "%.9f", 1.5 * (1 - p[3] / s) }')
expect 0 "$BIN/pn-solve" "$TMP/expr.xml"
awk -v w="$want" '$1 == "T1" { d = $2 - w; if (d < 0) d = -d; found = 1
                               exit !(d < 1e-8) } END { exit !found }' \
    "$TMP/out" && ok || bad "T1's throughput is not the closed form $want"
sed 1d "$TMP/out" > "$TMP/expr.solve"
expect 0 "$BIN/pn-solve" "$TMP/inf.xml"
sed 1d "$TMP/out" > "$TMP/inf.solve"
cmp -s "$TMP/expr.solve" "$TMP/inf.solve" && ok || bad "#(P0)*2 is not T0 of rate 2, infinite server"
# the same firings drawn by the simulator
expect 0 "$BIN/pn-run" --semantics stochastic "$TMP/expr.xml"
cp "$TMP/out" "$TMP/expr.sim"
expect 0 "$BIN/pn-run" --semantics stochastic "$TMP/inf.xml"
cmp -s "$TMP/expr.sim" "$TMP/out" && ok || bad "pn-run: #(P0)*2 is not T0 of rate 2, infinite server"
# the grammar's operators and precedence: the same function of #P0
for r in '1+#(P0)*2-1' '(#(P0)+#(P0))/1' 'floor(#(P0)*2.5)-floor(#(P0)/2)' \
         'ceil( #(P0) * 2.0 )' '2*#( P0 )'; do
    pipe_net "$TMP/op.xml" "$r"
    expect 0 "$BIN/pn-solve" "$TMP/op.xml"
    sed 1d "$TMP/out" > "$TMP/op.solve"
    cmp -s "$TMP/expr.solve" "$TMP/op.solve" && ok || bad "'$r' is not #(P0)*2"
done

# ---- malformed rates: refused where they are ------------------------------
line=$(grep -n '<rate><value>' "$TMP/expr.xml" | head -1 | cut -d: -f1)
refused() { # RATE TEXT
    pipe_net "$TMP/bad.xml" "$1"
    expect 1 "$BIN/pn-info" "$TMP/bad.xml"
    has "$TMP/err" "$TMP/bad.xml:$line:$2"
}
refused '-3' "14: transition rate '-3' is not a finite number >= 0"
refused 'NaN' "14: transition rate 'NaN' is not a finite number >= 0"
refused '#(P0)*2 + #(Q9)' "26: transition 'T0': rate '#(P0)*2 + #(Q9)': 'Q9' names no place"
refused '#(P0)*' "20: transition 'T0': rate '#(P0)*': a number, '#(', 'cap(', 'ceil(', 'floor(' or '(', not the end of the expression"
refused '2 3' "16: transition 'T0': rate '2 3': an operator, not '3'"
refused 'ceil (#(P0))' "14: transition 'T0': rate 'ceil (#(P0))': a number, '#(', 'cap(', 'ceil(', 'floor(' or '(', not 'ceil'"
refused '1/0' "14: transition 'T0': rate '1/0' is inf, not a finite number >= 0"
refused '-1*#(P0)' "14: transition 'T0': rate '-1*#(P0)': a number"
refused '#(P0,Red)' "16: transition 'T0': rate '#(P0,Red)': '#(P0, colour)' counts tokens of one colour"
# a value that is not a rate at a reachable marking: said by the solver
# and the simulator, with the marking or its time
pipe_net "$TMP/neg.xml" '#(P0)-2.5'
expect 0 "$BIN/pn-info" "$TMP/neg.xml"
expect 1 "$BIN/pn-solve" "$TMP/neg.xml"
has "$TMP/err" "transition T0: its rate '#(P0)-2.5' is -0.5, not a finite number >= 0, at the reachable marking {P0=2, P1=1}"
expect 1 "$BIN/pn-run" --semantics stochastic "$TMP/neg.xml"
has "$TMP/err" "transition T0: its rate '#(P0)-2.5' is not a finite number >= 0 at the marking reached at time"

# ---- written back as read -------------------------------------------------
expect 0 "$BIN/pn-info" --dump "$TMP/expr.xml"
has "$TMP/out" 'timing=exponential rate=6 priority=1 server=single expression="#(P0)*2"'
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/expr.out" "$TMP/expr.xml"
has "$TMP/expr.out" "<value>#(P0)*2</value>"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/expr.out2" "$TMP/expr.out"
cmp -s "$TMP/expr.out" "$TMP/expr.out2" && ok || bad "a second PIPE write differs"

# ---- rate parameters: PIPECore's <definition> and rateDefinition ----------
def='<definition name="rate1" expression="#(P0)*2" id="rate1" defType="real" type="text"/>'
blk='<toolspecific tool="PIPE" version="5" rateDefinition="rate1"/>'
pipe_net "$TMP/def.xml" '#(P0)*2' "$def" "$blk"
expect 0 "$BIN/pn-info" "$TMP/def.xml"
lacks "$TMP/err" "definition"
expect 0 "$BIN/pn-solve" "$TMP/def.xml"
sed 1d "$TMP/out" > "$TMP/def.solve"
cmp -s "$TMP/expr.solve" "$TMP/def.solve" && ok || bad "the rate parameter is not #(P0)*2"
# the parameter wins over <rate>, as in PIPE (TransitionAdapter)
pipe_net "$TMP/def1.xml" '1' "$def" "$blk"
expect 0 "$BIN/pn-solve" "$TMP/def1.xml"
sed 1d "$TMP/out" > "$TMP/def.solve"
cmp -s "$TMP/expr.solve" "$TMP/def.solve" && ok || bad "<rate> won over the rate parameter"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/def.out" "$TMP/def.xml"
has "$TMP/def.out" "$def"
has "$TMP/def.out" "$blk"
has "$TMP/def.out" "<value>#(P0)*2</value>"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/def.out2" "$TMP/def.out"
cmp -s "$TMP/def.out" "$TMP/def.out2" && ok || bad "a second PIPE write of a parameter differs"
# an older PIPE parameter: a name and no id, a number
pipe_net "$TMP/old.xml" '5.0' '<definition name="r0" type="rate" expression="5.0"/>' \
    '<toolspecific tool="PIPE" version="5" rateDefinition="r0"/>'
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/old.out" "$TMP/old.xml"
has "$TMP/old.out" '<definition name="r0" type="rate" expression="5.0"/>'
# malformed parameters: refused where they are
pipe_net "$TMP/bad.xml" '1' '<definition id="r" expression="#(Q)"/>'
expect 1 "$BIN/pn-info" "$TMP/bad.xml"
has "$TMP/err" "$TMP/bad.xml:4:"
has "$TMP/err" "<definition> 'r': rate '#(Q)': 'Q' names no place"
pipe_net "$TMP/bad.xml" '1' '' '<toolspecific tool="PIPE" version="5" rateDefinition="nope"/>'
expect 1 "$BIN/pn-info" "$TMP/bad.xml"
has "$TMP/err" "transition 'T0': rateDefinition 'nope' names no <definition>"
# ---- rate parameters through the other dialects and back ------------------
# the standard dialect carries the parameter in its own block, so that the
# transition's PIPE block still names it when written back as PIPE
expect 0 "$BIN/pn-convert" -o "$TMP/def.pnml" "$TMP/def.xml"
has "$TMP/def.pnml" "$def"
expect 0 "$BIN/pn-convert" -o "$TMP/def2.pnml" "$TMP/def.pnml"
cmp -s "$TMP/def.pnml" "$TMP/def2.pnml" && ok || bad "a second standard write of a parameter differs"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/def.back" "$TMP/def.pnml"
has "$TMP/def.back" "$def"
has "$TMP/def.back" "$blk"
cmp -s "$TMP/def.out" "$TMP/def.back" && ok || bad "PIPE -> standard -> PIPE differs from PIPE -> PIPE"
expect 0 "$BIN/pn-solve" "$TMP/def.back"
sed 1d "$TMP/out" > "$TMP/def.solve"
cmp -s "$TMP/expr.solve" "$TMP/def.solve" && ok || bad "the parameter is lost through the standard dialect"
# a malformed parameter in our block is refused where it is
sed 's/expression="#(P0)\*2" id="rate1"/expression="#(Q)" id="rate1"/' "$TMP/def.pnml" > "$TMP/bad.pnml"
line=$(grep -n '<definition' "$TMP/bad.pnml" | head -1 | cut -d: -f1)
expect 1 "$BIN/pn-info" "$TMP/bad.pnml"
has "$TMP/err" "$TMP/bad.pnml:$line:"
has "$TMP/err" "<definition> 'rate1': rate '#(Q)': 'Q' names no place"
finish
