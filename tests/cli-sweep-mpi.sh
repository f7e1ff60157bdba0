#!/bin/sh
# pn-sweep under mpirun: the output of 1, 2 and 3 ranks is byte for byte
# the one of a process alone (threads 1), for sweeps of many points and of
# one point of many runs (chunks of it on every rank); a failing point is
# reported once; --version says whether MPI is built in.  Skipped (77) only
# when configure found no Open MPI.
. "${srcdir:-tests}/lib.sh"

if ! grep -q '^#define HAVE_MPI 1' "$top_builddir/config.h"; then
    expect 0 "$BIN/pn-sweep" --version
    has "$TMP/out" "MPI: not built in"
    # under mpirun all the same: refused (each rank would write the sweep)
    if command -v mpirun > /dev/null; then
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            expect 2 timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$BIN/pn-sweep" --param warps=2 --runs 2
        has "$TMP/err" "built without MPI"
        [ -s "$TMP/out" ] && bad "rows written under mpirun without MPI" || ok
    fi
    finish > /dev/null || exit 1
    echo "SKIP: pn-sweep is built without MPI (configure found no Open MPI:"
    echo "      install libopenmpi-dev and openmpi-bin, then configure again)"
    exit 77
fi
expect 0 "$BIN/pn-sweep" --version
has "$TMP/out" "MPI: Open MPI"
command -v mpirun > /dev/null && ok || { bad "pn-sweep is built with MPI but mpirun is not found (openmpi-bin)"; finish; exit 1; }

# root (containers, CI) needs both the option and these; Open MPI's own
# allocations are not the toolkit's: no leak check under AddressSanitizer
# for the processes mpirun starts
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
# no network interfaces needed: the ranks are on this machine
export OMPI_MCA_btl="self,vader" OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi() {
    n=$1; shift
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$n" "$@"
}

# many points, few runs each (a point a chunk), both formats, per-run rows
G="--param warps=2,4 --param global=1:3 --runs 5 --count t0 --per-run"
# one point, many runs (guided chunks of it)
P="--param warps=8 --runs 60 --count t0"
for args in "$G" "$G -f json" "$P"; do
    expect 0 "$BIN/pn-sweep" $args --threads 1 -q; cp "$TMP/out" "$TMP/one"
    [ -s "$TMP/one" ] && ok || bad "no output: $args"
    for n in 1 2 3; do
        expect 0 mpi $n "$BIN/pn-sweep" $args -q
        cmp -s "$TMP/out" "$TMP/one" && ok ||
            { bad "mpirun -np $n changes the output of: $args"; diff "$TMP/one" "$TMP/out" | head -5 >&2; }
    done
done
# rank 0 with threads of its own beside the other ranks
expect 0 mpi 2 "$BIN/pn-sweep" $P --threads 2 -q
cmp -s "$TMP/out" "$TMP/one" && ok || bad "mpirun -np 2 --threads 2 changes the output"
# into a file, a shard of it, resumed: the same as alone
expect 0 "$BIN/pn-sweep" $G --shard 1/2 -q -o "$TMP/alone.csv"
expect 0 mpi 3 "$BIN/pn-sweep" $G --shard 1/2 -q -o "$TMP/ranks.csv"
cmp -s "$TMP/alone.csv" "$TMP/ranks.csv" && ok || bad "mpirun -np 3 --shard 1/2 -o: not the file of one process"
head -n 20 "$TMP/alone.csv" > "$TMP/cut.csv"
expect 0 mpi 2 "$BIN/pn-sweep" $G --shard 1/2 -q --resume -o "$TMP/cut.csv"
cmp -s "$TMP/alone.csv" "$TMP/cut.csv" && ok || bad "mpirun -np 2 --resume: not the file of one process"

# a point that cannot be built: one message, status 1, whichever rank met it
expect 1 mpi 3 "$BIN/pn-sweep" --param warps=4,100000 --runs 3 -q
has "$TMP/err" "point 1: 100000 warps: at most"
[ "$(grep -c 'warps: at most' "$TMP/err")" = 1 ] && ok || bad "the failure is reported more than once"
# a bad command line: status 2, said once
expect 2 mpi 3 "$BIN/pn-sweep" --runs 0
[ "$(grep -c "runs: '0' is not a whole number" "$TMP/err")" = 1 ] && ok || bad "a bad --runs is reported more than once"
# the reader's warnings on a net: said once, by rank 0
cat > "$TMP/odd.pnml" <<'XML'
<pnml><net id="n" type="bogus"><place id="p"><initialMarking><text>1</text></initialMarking></place>
<place id="q"/><transition id="t"/>
<arc id="a1" source="p" target="t"/><arc id="a2" source="t" target="q"/></net></pnml>
XML
expect 0 mpi 3 "$BIN/pn-sweep" --runs 2 "$TMP/odd.pnml"
[ "$(grep -c "unknown net type 'bogus'" "$TMP/err")" = 1 ] && ok ||
    bad "the reader's warning said $(grep -c "unknown net type" "$TMP/err") times by 3 ranks"
# --merge under mpirun: rank 0 merges, the others wait
expect 0 "$BIN/pn-sweep" $G --shard 0/2 -q -o "$TMP/other.csv"
expect 0 "$BIN/pn-sweep" $G -q -o "$TMP/whole.csv"
expect 0 mpi 2 "$BIN/pn-sweep" --merge "$TMP/other.csv" "$TMP/alone.csv" -o "$TMP/merged.csv"
cmp -s "$TMP/merged.csv" "$TMP/whole.csv" && ok || bad "--merge under mpirun: not the whole sweep"

# the MPI job script of share/examples, outside Slurm: 3 tasks, as one run
(cd "$TMP" && PATH="$BIN:$PATH" SLURM_NTASKS=3 PN_SWEEP_RUNS=2 \
    PN_MPIRUN_FLAGS="--oversubscribe --allow-run-as-root" \
    timeout 300 sh "$srcdir/../share/examples/sweep-mpi.sh") > "$TMP/out" 2> "$TMP/err" && ok ||
    { bad "sweep-mpi.sh failed"; sed 's/^/  | /' "$TMP/err" >&2; }
expect 0 "$BIN/pn-sweep" --param warps=8,16,32,64 --param global=4:40:4 --runs 2 --count t0 -q
cmp -s "$TMP/out" "$TMP/sweep-mpi.csv" && ok || bad "the MPI job script's output differs from one run"

finish
