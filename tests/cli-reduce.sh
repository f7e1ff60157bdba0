#!/bin/sh
# Structural reductions on three of the contest's small instances
# (../shared/mcc-oracle; sixteen under make check-mcc): each instance's
# model and property files copied alone into a scratch folder (never an
# oracle file), every reachability and bound formula and EF deadlock
# answered on the net and on the net reduced for it (tests/reduce-mcc):
# the same answers, witnesses of the reduced net replayed on the net.
. "${srcdir:-tests}/lib.sh"
ORACLE="${MCC_ORACLE:-}"
[ -n "$ORACLE" ] || ORACLE="${PN_CORPUS:+$PN_CORPUS/../mcc-oracle}"
if [ -z "$ORACLE" ] || [ ! -f "$ORACLE/INDEX.tsv" ]; then
    echo "no ../shared/mcc-oracle: skipped"; exit 77
fi
# make check: three cheap instances the reductions shrink, all three
# required to shrink; make check-mcc (REDUCE_ALL=1): all sixteen, eight
# at least
if [ -n "${REDUCE_ALL:-}" ]; then
    models="ResAllocation-PT-R003C002 Angiogenesis-PT-01
        CircadianClock-PT-000001 TokenRing-PT-005 Philosophers-PT-000005
        DrinkVendingMachine-PT-02 RwMutex-PT-r0010w0010
        HouseConstruction-PT-00002 SharedMemory-PT-000005 Eratosthenes-PT-020
        IBM319-PT-none FMS-PT-00002 DNAwalker-PT-01track12Block1
        CloudOpsManagement-PT-00002by00001 EGFr-PT-02010 Dekker-PT-010"
    want=8
else
    models="ResAllocation-PT-R003C002 Philosophers-PT-000005
        HouseConstruction-PT-00002"
    want=3
fi
dirs=
for model in $models; do
    [ -f "$ORACLE/$model/model.pnml" ] || continue
    mkdir -p "$TMP/$model"
    cp "$ORACLE/$model/model.pnml" "$TMP/$model/"
    for exam in ReachabilityCardinality ReachabilityFireability UpperBounds; do
        [ -f "$ORACLE/$model/$exam.xml" ] &&
            cp "$ORACLE/$model/$exam.xml" "$TMP/$model/"
    done
    dirs="$dirs $TMP/$model"
done
[ -n "$dirs" ] && ok || bad "none of the instances found"
# shellcheck disable=SC2086
if "$top_builddir/tests/reduce-mcc" $dirs > "$TMP/out" 2>&1; then ok; else
    bad "reduced answers differ:"; grep FAIL "$TMP/out" | head -20 >&2; fi
sed "s|$TMP/||" "$TMP/out"
# the reductions found something to take away on most of them
n=$(grep -c 'compared, [1-9]' "$TMP/out")
[ "$n" -ge "$want" ] && ok || bad "only $n instances had a smaller net"
finish
