#!/bin/sh
# pn-sweep from the command line: grids, threads, seeds, shards and merge,
# resume, specs, PNML parameters, and the result schema of its man page
# against what pn-sweep and pn-run write.
. "${srcdir:-tests}/lib.sh"
MAN="$srcdir/../share/man/pn-sweep.1"

expect 0 "$BIN/pn-sweep" --help
has "$TMP/out" "Usage: pn-sweep"
has "$TMP/out" "Exit status"
expect 0 "$BIN/pn-sweep" --version
has "$TMP/out" "pn-sweep (pn-toolkit)"
expect 2 "$BIN/pn-sweep" --no-such-option
man_documents_options pn-sweep
# --help names every parameter of the generator's table (a word of the
# --param entry each)
"$BIN/pn-sweep" --help | sed -n '/^  -p, --param/,/^ *-.*--spec/p' | tr -s ' ,()\n' '\n\n\n\n' > "$TMP/param-words"
rows=$(sed -n 's/^    {"\([a-z0-9_-]*\)", [A-Z_]*, OFF(.*/\1/p' "$srcdir/../generators/gpu_options.c")
[ "$(echo "$rows" | wc -w)" -ge 20 ] && ok || bad "the generator's table was not found in gpu_options.c"
for p in $rows; do
    grep -qx -- "$p" "$TMP/param-words" && ok || bad "pn-sweep --help lacks the parameter $p"
done
# every parameter of the generator's table is in the man page
for p in $("$BIN/pn-gen-gpu" --help | sed -n 's/^ *\(-., \)\{0,1\}--\([a-z0-9-]*\) [A-Z].*/\2/p' | grep -v -x -e output -e dialect); do
    grep -qF -- "\\fB$(echo "$p" | sed 's/-/\\-/g')\\fR" "$MAN" && ok || bad "pn-sweep.1 lacks the parameter $p"
done

# --- the grid, threads, seeds ------------------------------------------
G="--param warps=2,4 --param global=1:3 --runs 5 --count t0"
expect 0 "$BIN/pn-sweep" $G --threads 1; cp "$TMP/out" "$TMP/t1"
[ "$(grep -c '^1,point,' "$TMP/t1")" = 18 ] && ok || bad "not 6 points x 3 measures"
has "$TMP/t1" "schema,kind,point,run,seed,warps,global,measure,end,value,requested,runs,dead,limit,overflow,n,mean,sd,min,median,max,ci_low,ci_high"
# the last parameter changes fastest
has "$TMP/t1" "1,point,0,,1,2,1,steps,"
has "$TMP/t1" "1,point,1,,1,2,2,steps,"
has "$TMP/t1" "1,point,5,,1,4,3,count:t0,"
for j in 2 3; do
    expect 0 "$BIN/pn-sweep" $G --jobs $j
    cmp -s "$TMP/out" "$TMP/t1" && ok || bad "--jobs $j changes the output"
done
# a point alone gives its numbers: point 4 (warps 4, global 2) as a sweep of
# its own is point 0 there, with pn_point_seed(1, 4) as the seed
expect 0 "$BIN/pn-sweep" --param warps=4 --param global=2 --runs 5 --count t0 --per-run
expect 0 "$BIN/pn-sweep" $G --per-run --threads 2; cp "$TMP/out" "$TMP/pr"
[ "$(grep -c '^1,run,' "$TMP/pr")" = $((6 * 5 * 3)) ] && ok || bad "--per-run: not 90 run rows"
# point 0 of a sweep is pn-run --runs with the same seed
"$BIN/pn-gen-gpu" --warps 2 --global 1 -o "$TMP/g.pnml"
expect 0 "$BIN/pn-run" --runs 5 --count t0 -f csv "$TMP/g.pnml"
sed -n 's/^1,point,0,,1,\(steps\|firings\|count:t0\),/\1,/p' "$TMP/out" > "$TMP/run-rows"
grep '^1,point,0,' "$TMP/t1" | sed 's/^1,point,0,,1,2,1,//' > "$TMP/sweep-rows"
cmp -s "$TMP/run-rows" "$TMP/sweep-rows" && [ -s "$TMP/run-rows" ] && ok || bad "point 0 is not pn-run --runs"
# --seed changes the numbers
expect 0 "$BIN/pn-sweep" $G --seed 2
cmp -s "$TMP/out" "$TMP/t1" && bad "--seed 2 gives the same numbers" || ok

# --- shards and merge ----------------------------------------------------
for fmt in csv json; do
    expect 0 "$BIN/pn-sweep" $G --per-run -f $fmt -o "$TMP/full.$fmt"
    for k in 0 1 2; do
        expect 0 "$BIN/pn-sweep" $G --per-run -f $fmt --shard $k/3 -o "$TMP/s$k.$fmt"
    done
    expect 0 "$BIN/pn-sweep" --merge "$TMP/s2.$fmt" "$TMP/s0.$fmt" "$TMP/s1.$fmt" -o "$TMP/m.$fmt"
    cmp -s "$TMP/m.$fmt" "$TMP/full.$fmt" && ok || bad "$fmt: 3 shards merged differ from one run"
done
expect 1 "$BIN/pn-sweep" --merge "$TMP/s0.csv" "$TMP/s1.csv"
has "$TMP/err" "point 2 is in no file"
expect 1 "$BIN/pn-sweep" --merge "$TMP/s0.csv" "$TMP/s0.csv" "$TMP/s1.csv" "$TMP/s2.csv"
has "$TMP/err" "is in two files"
expect 2 "$BIN/pn-sweep" $G --shard 3/3
expect 2 "$BIN/pn-sweep" $G --shard x

# the Slurm example: two array tasks of two, merged, as one run
for k in 0 1; do
    (cd "$TMP" && PATH="$BIN:$PATH" SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_ID=$k \
        PN_SWEEP_RUNS=2 sh "$srcdir/../share/examples/sweep-slurm.sh") > "$TMP/out" 2>&1 && ok || bad "sweep-slurm.sh task $k failed"
done
expect 0 "$BIN/pn-sweep" --merge "$TMP/sweep-shard-1.csv" "$TMP/sweep-shard-0.csv"
cp "$TMP/out" "$TMP/slurm-merged"
expect 0 "$BIN/pn-sweep" --param warps=8,16,32,64 --param global=4:40:4 --runs 2 --count t0
cmp -s "$TMP/out" "$TMP/slurm-merged" && ok || bad "the Slurm example's shards merged differ from one run"

# --- resume: a file cut anywhere (a crash) is finished the same ----------
size=$(wc -c < "$TMP/full.csv")
for cut in 100 $((size / 3)) $((size / 2 + 7)) $size; do
    head -c $cut "$TMP/full.csv" > "$TMP/part.csv"
    expect 0 "$BIN/pn-sweep" $G --per-run --resume -o "$TMP/part.csv"
    cmp -s "$TMP/part.csv" "$TMP/full.csv" && ok || bad "resumed after $cut bytes: differs"
done
expect 0 "$BIN/pn-sweep" $G --per-run --resume -o "$TMP/new.csv"
cmp -s "$TMP/new.csv" "$TMP/full.csv" && ok || bad "--resume of no file"
expect 1 "$BIN/pn-sweep" --param warps=2 --resume -o "$TMP/full.csv"
has "$TMP/err" "the header is not this sweep's"
expect 2 "$BIN/pn-sweep" $G --resume

# --- the schema of the man page is what is written -----------------------
awk '/^\.SS Columns/ {on=1; next} /^\.S[SH]/ {on=0} on && /^\.B / {print $2}' "$MAN" > "$TMP/cols"
[ "$(wc -l < "$TMP/cols")" -ge 20 ] && ok || bad "no column list in pn-sweep.1"
# CSV: the header is the columns, the parameters after seed
(head -5 "$TMP/cols"; echo warps; echo global; tail -n +6 "$TMP/cols") | paste -sd, > "$TMP/want"
head -1 "$TMP/full.csv" > "$TMP/got"
cmp -s "$TMP/want" "$TMP/got" && ok || bad "CSV header is not the man page's: $(cat "$TMP/got")"
# every row has as many fields as the header
awk -F, 'NR == 1 {n = NF} NF != n {exit 1}' "$TMP/full.csv" && ok || bad "CSV rows of another width"
# JSON Lines: keys in the columns' order (params after seed), kinds as said
paste -sd' ' "$TMP/cols" > "$TMP/order"
n=0
while IFS= read -r line; do
    keys=$(printf '%s\n' "$line" | sed 's/"params": {[^}]*}/"params": 0/' |
           grep -o '"[a-z_]*": ' | tr -d '": ' | grep -v '^params$' | paste -sd' ')
    # the keys a row has are the man page's columns, in its order
    echo "$keys" | awk -v order="$(cat "$TMP/order")" '
        { split(order, o, " "); k = 1; n = split($0, w, " ")
          for (i = 1; i <= n; i++) { while (k <= length(o) && o[k] != w[i]) k++
                                     if (k > length(o)) exit 1 } }' || { bad "JSON keys out of order: $keys"; break; }
    n=$((n + 1))
done < "$TMP/full.json"
[ "$n" -gt 0 ] && ok || bad "no JSON rows"
has "$TMP/full.json" '{"schema": 1, "kind": "point", "point": 0, "seed": 1, "params": {"warps": 2, "global": 1}, "measure": "steps", "requested": 5,'
has "$TMP/full.json" '"kind": "run", "point": 0, "run": 0, "seed": '
# pn-run writes the same schema: its header is the columns without parameters
"$BIN/pn-run" -f csv "$TMP/g.pnml" | head -1 > "$TMP/got"
paste -sd, "$TMP/cols" > "$TMP/want"
cmp -s "$TMP/want" "$TMP/got" && ok || bad "pn-run's CSV header is not the schema's"
"$BIN/pn-run" --runs 3 -f json "$TMP/g.pnml" | head -1 | grep -q '^{"schema": 1, "kind": "point", "point": 0, "seed": 1, "measure": "steps", "requested": 3, "runs": 3, "dead": 3, "limit": 0, "overflow": 0, "n": 3, "mean": ' && ok || bad "pn-run's JSON is not the schema's"

# --- spec files ----------------------------------------------------------
cat > "$TMP/spec.yaml" <<'YAML'
# the sweep G
runs: 5
count: [t0]
params:
  warps: [2, 4]
  global: "1:3"
YAML
expect 0 "$BIN/pn-sweep" --spec "$TMP/spec.yaml"
cmp -s "$TMP/out" "$TMP/t1" && ok || bad "the spec does not give the command line's sweep"
expect 0 "$BIN/pn-sweep" --spec "$TMP/spec.yaml" --runs 6
has "$TMP/out" ",steps,,,6,6,"
# jobs (threads too) in a spec, as -j, --jobs on the command line
for k in jobs threads; do
    { cat "$TMP/spec.yaml"; echo "$k: 2"; } > "$TMP/spec-$k.yaml"
    expect 0 "$BIN/pn-sweep" --spec "$TMP/spec-$k.yaml"
    cmp -s "$TMP/out" "$TMP/t1" && ok || bad "$k: 2 in a spec changes the output"
done
expect 0 "$BIN/pn-sweep" --spec "$TMP/spec.yaml" -j 1
cmp -s "$TMP/out" "$TMP/t1" && ok || bad "-j 1 changes the output"
printf 'runs: 5\nparams:\n  warps: [2, 4]\n  global: "1:x"\n' > "$TMP/b1.yaml"
expect 1 "$BIN/pn-sweep" --spec "$TMP/b1.yaml"
has "$TMP/err" "b1.yaml:4: global: '1:x' is not a whole number"
printf 'runs: 5\nthreds: 2\n' > "$TMP/b2.yaml"
expect 1 "$BIN/pn-sweep" --spec "$TMP/b2.yaml"
has "$TMP/err" "b2.yaml:2: 'threds' is not a setting"
printf 'runs: [5\nseed: 1\n' > "$TMP/b3.yaml"
expect 1 "$BIN/pn-sweep" --spec "$TMP/b3.yaml"
has "$TMP/err" "b3.yaml:2:"
printf 'runs: 0\n' > "$TMP/b4.yaml"
expect 1 "$BIN/pn-sweep" --spec "$TMP/b4.yaml"
has "$TMP/err" "b4.yaml:1: runs"
printf 'params:\n  nope: 3\n' > "$TMP/b5.yaml"
expect 1 "$BIN/pn-sweep" --spec "$TMP/b5.yaml"
has "$TMP/err" "b5.yaml:2: 'nope' is not a parameter"
expect 1 "$BIN/pn-sweep" --spec "$TMP/none.yaml"

# --- PNML nets: initial markings and arc weights --------------------------
cat > "$TMP/chain.pnml" <<'XML'
<pnml><net id="n"><place id="p3"><initialMarking><text>1</text></initialMarking></place>
<place id="q"/><transition id="t"/>
<arc id="a1" source="p3" target="t"/><arc id="a2" source="t" target="q"/></net></pnml>
XML
# t fires once a step, taking arc:a1 tokens: p_init / weight steps
expect 0 "$BIN/pn-sweep" --param p_init:p3=2:6:4 --param arc:a1=1,2 --runs 2 -c t "$TMP/chain.pnml"
has "$TMP/out" "schema,kind,point,run,seed,net,p_init:p3,arc:a1,measure,"
has "$TMP/out" "1,point,0,,1,$TMP/chain.pnml,2,1,steps,,,2,2,2,0,0,2,2.000000,"
has "$TMP/out" "1,point,1,,1,$TMP/chain.pnml,2,2,steps,,,2,2,2,0,0,2,1.000000,"
has "$TMP/out" "1,point,2,,1,$TMP/chain.pnml,6,1,count:t,,,2,2,2,0,0,2,6.000000,"
has "$TMP/out" "1,point,3,,1,$TMP/chain.pnml,6,2,steps,,,2,2,2,0,0,2,3.000000,"
# a list of nets is the first parameter
"$BIN/pn-gen-gpu" --warps 1 -o "$TMP/w1.pnml"
expect 0 "$BIN/pn-sweep" --runs 2 "$TMP/chain.pnml" "$TMP/w1.pnml"
has "$TMP/out" "1,point,1,,1,$TMP/w1.pnml,steps,"
# refusals
expect 2 "$BIN/pn-sweep" --param p_init:zz=1 "$TMP/chain.pnml"
has "$TMP/err" "'zz' is not a place of the net"
expect 2 "$BIN/pn-sweep" --param arc:p3=1 "$TMP/chain.pnml"
expect 2 "$BIN/pn-sweep" --param warps=2 "$TMP/chain.pnml"
has "$TMP/err" "not with net FILEs"
expect 2 "$BIN/pn-sweep" --param p_init:p3=1
expect 1 "$BIN/pn-sweep" --param arc:a1=0 "$TMP/chain.pnml"
expect 1 "$BIN/pn-sweep" "$TMP/missing.pnml"
# --- bad command lines -----------------------------------------------------
expect 2 "$BIN/pn-sweep" --param nope=1
has "$TMP/err" "'nope' is not a parameter"
expect 2 "$BIN/pn-sweep" --param warps=0
has "$TMP/err" "warps: 0 is out of range"
expect 2 "$BIN/pn-sweep" --param warps=5:2
has "$TMP/err" "goes down"
expect 2 "$BIN/pn-sweep" --param warps=2 --param warps=3
expect 2 "$BIN/pn-sweep" --param warps
expect 2 "$BIN/pn-sweep" --runs 0
expect 2 "$BIN/pn-sweep" --steps 5 --max-steps 6
# an unknown --count id: refused before any work, as pn-run refuses it, and
# no file left (not even a header)
expect 2 "$BIN/pn-sweep" --param warps=1 -c nosuch
has "$TMP/err" "pn-sweep: --count: 'nosuch' is not a transition of the net (point 0)"
expect 2 "$BIN/pn-sweep" --param warps=1,2 --runs 2 -c t0,nosuch -o "$TMP/nc.csv"
has "$TMP/err" "--count: 'nosuch' is not a transition of the net"
[ -e "$TMP/nc.csv" ] && bad "an unknown --count id left $TMP/nc.csv" || ok
expect 2 "$BIN/pn-sweep" --runs 2 -c nosuch -o "$TMP/nc.csv" "$TMP/chain.pnml"
has "$TMP/err" "--count: 'nosuch' is not a transition of the net ($TMP/chain.pnml)"
[ -e "$TMP/nc.csv" ] && bad "an unknown --count id left $TMP/nc.csv" || ok
expect 2 "$BIN/pn-run" -c nosuch "$TMP/chain.pnml"
has "$TMP/err" "pn-run: --count: 'nosuch' is not a transition of the net"
expect 1 "$BIN/pn-sweep" --param blocks=4
has "$TMP/err" "go together"
# --- the plot (gnuplot) -------------------------------------------------
expect 2 "$BIN/pn-sweep" --param warps=1,2 --runs 2 --plot "$TMP/p.svg"
has "$TMP/err" "--plot draws the results file"
expect 2 "$BIN/pn-sweep" --param warps=1,2 --runs 2 -o "$TMP/r.csv" --plot "$TMP/p.gif"
if grep -q '^#define GNUPLOT ' "$top_builddir/config.h"; then
    expect 0 "$BIN/pn-sweep" --param global=1:3 --param warps=1,4 --runs 4 -o "$TMP/r.csv" --plot "$TMP/p.svg"
    head -c 400 "$TMP/p.svg" | grep -q '<svg' && ok || bad "--plot .svg is not SVG"
    # the axes: the first parameter with its unit, the mean steps; the key:
    # the second parameter and its values
    has "$TMP/p.svg" "<text>global (accesses)</text>"
    has "$TMP/p.svg" "<text>mean steps (95% confidence band)</text>"
    has "$TMP/p.svg" "<text>warps</text>"
    [ "$(grep -c 'fill-opacity\|opacity' "$TMP/p.svg")" -ge 2 ] && ok || bad "no confidence bands in the SVG"
    expect 0 "$BIN/pn-sweep" --merge "$TMP/r.csv" -o "$TMP/r2.csv" --plot "$TMP/p.png"
    [ "$(head -c 4 "$TMP/p.png" | tail -c 3)" = PNG ] && ok || bad "--plot .png is not PNG"
    expect 0 "$BIN/pn-sweep" --param l1=5:20:5 --runs 3 -o "$TMP/r.csv" --plot "$TMP/p.pdf"
    [ "$(head -c 4 "$TMP/p.pdf")" = "%PDF" ] && ok || bad "--plot .pdf is not PDF"
    # a sweep with no number to put along the axis (the nets alone) is
    # refused; no file left
    expect 2 "$BIN/pn-sweep" --runs 2 -o "$TMP/r.csv" --plot "$TMP/q.svg" "$TMP/w1.pnml"
    has "$TMP/err" "--plot: no parameter of the sweep is a number to put along the axis (net): sweep p_init:ID or arc:ID too"
    [ -e "$TMP/q.svg" ] && bad "a refused plot left a file" || ok
    # a sweep over PNML files: the swept value along the axis, a line a
    # net (named by its file), each with its 3 points (and its key's mark)
    cat > "$TMP/fork.pnml" <<'XML'
<pnml><net id="f"><place id="p3"><initialMarking><text>1</text></initialMarking></place>
<place id="q"/><transition id="t"/><transition id="u"/>
<arc id="a1" source="p3" target="t"/><arc id="a2" source="t" target="q"/>
<arc id="a3" source="p3" target="u"/></net></pnml>
XML
    expect 0 "$BIN/pn-sweep" --runs 3 --param p_init:p3=2:6:2 -o "$TMP/r.csv" \
        --plot "$TMP/n.svg" "$TMP/chain.pnml" "$TMP/fork.pnml"
    has "$TMP/n.svg" "<text>p_init:p3 (tokens)</text>"
    has "$TMP/n.svg" "<text>mean steps (95% confidence band)</text>"
    has "$TMP/n.svg" "<text>net</text>"
    has "$TMP/n.svg" "<text>chain.pnml</text>"
    has "$TMP/n.svg" "<text>fork.pnml</text>"
    [ "$(grep -c '#gpPt6' "$TMP/n.svg")" -eq 8 ] && ok || bad "not 2 lines of 3 points in n.svg"
    lacks "$TMP/n.svg" "mean firings"
    # --count: a second panel, the mean firings of the transition counted
    # (its id on the axis), the same lines
    expect 0 "$BIN/pn-sweep" --runs 3 --param p_init:p3=2:6:2 -c t -o "$TMP/r.csv" \
        --plot "$TMP/c.svg" "$TMP/chain.pnml" "$TMP/fork.pnml"
    has "$TMP/c.svg" "<text>mean steps (95% confidence band)</text>"
    has "$TMP/c.svg" "<text>mean firings of t (95% confidence band)</text>"
    [ "$(grep -c '<text>chain.pnml</text>' "$TMP/c.svg")" -eq 2 ] && ok || bad "chain.pnml not a line of both panels"
    [ "$(grep -c '#gpPt6' "$TMP/c.svg")" -eq 16 ] && ok || bad "not 2 panels of 2 lines of 3 points in c.svg"
    # several counts: a line each, named by the transition
    expect 0 "$BIN/pn-sweep" --runs 3 --param p_init:p3=2:6:2 -c t,u -o "$TMP/r.csv" \
        --plot "$TMP/c.svg" "$TMP/fork.pnml"
    has "$TMP/c.svg" "<text>mean firings (95% confidence band)</text>"
    has "$TMP/c.svg" "<text>transition, net</text>"
    has "$TMP/c.svg" "<text>t, fork.pnml</text>"
    has "$TMP/c.svg" "<text>u, fork.pnml</text>"
    # and of the GPU net's parameters: the count of t0 by warps
    expect 0 "$BIN/pn-sweep" --param warps=1,2 --runs 3 -c t0 -o "$TMP/r.csv" --plot "$TMP/c.svg"
    has "$TMP/c.svg" "<text>mean firings of t0 (95% confidence band)</text>"
    has "$TMP/c.svg" "<text>t0</text>"
    has "$TMP/c.svg" "<text>mean steps</text>"
else
    echo "gnuplot was not found by configure: the plots are not tested"
fi

# limited runs: counted apart; --steps takes them in
cat > "$TMP/loop.pnml" <<'XML'
<pnml><net id="n"><place id="p"><initialMarking><text>1</text></initialMarking></place>
<transition id="t"/><arc id="a" source="p" target="t"/><arc id="b" source="t" target="p"/></net></pnml>
XML
expect 0 "$BIN/pn-sweep" --max-steps 30 --runs 3 "$TMP/loop.pnml"
has "$TMP/out" ",steps,,,3,3,0,3,0,0,,,,,,,"
expect 0 "$BIN/pn-sweep" --steps 30 --runs 3 "$TMP/loop.pnml"
has "$TMP/out" ",steps,,,3,3,0,3,0,3,30.000000,0.000000,30,30,30,30.000000,30.000000"
finish
