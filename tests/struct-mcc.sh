#!/bin/sh
# The MCC's OneSafe and StableMarking answers where pn-struct's
# P-semiflows decide them, against the contest's: each flow y with
# y M = c in every reachable marking bounds each place p of its support by
# c / y(p), so when the flows cover every place and bound each by 1 the
# net is one-safe (OneSafe TRUE); a flow on one place alone (or a bound 0)
# keeps that place's count fixed (StableMarking TRUE).  Then the linear
# programs: every place's bound at most 1 (OneSafe TRUE), and pn-struct's
# "live" or "not live" (Liveness).  Only each
# instance's model.pnml is copied, into a scratch folder, for pn-struct;
# the script alone reads the oracle's answer files.  Skipped (77) without
# the MCC oracle folder (MCC_ORACLE, or PN_CORPUS/../mcc-oracle).
#   STRUCT_VERBOSE=1  print each model's verdicts
. "${srcdir:-tests}/lib.sh"
ORACLE="${MCC_ORACLE:-}"
[ -n "$ORACLE" ] || ORACLE="${PN_CORPUS:+$PN_CORPUS/../mcc-oracle}"
if [ -z "$ORACLE" ] || [ ! -d "$ORACLE" ]; then echo "no MCC oracle: skipped"; exit 77; fi

# verdicts JSON: "onesafe stable", each 1 when the P-semiflows prove it
verdicts() {
    sed 's/.*"p_semiflows": //; s/"t_semiflows".*//' "$1" | awk '
        { complete = index($0, "\"end\": \"complete\"") > 0
          covered = index($0, "\"uncovered\": []") > 0
          s = $0
          while (match(s, /\{"weights": \{[^}]*\}, "constant": [0-9]+\}/)) {
              f = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
              match(f, /"constant": [0-9]+/); c = substr(f, RSTART + 12, RLENGTH - 12) + 0
              w = f; sub(/^\{"weights": \{/, "", w); sub(/\}, "constant".*/, "", w)
              n = split(w, kv, /, "/)
              for (i = 1; i <= n; i++) {
                  k = kv[i]; sub(/^"/, "", k); v = k; sub(/": [0-9]+$/, "", k)
                  sub(/.*": /, "", v); b = int(c / v)
                  if (!(k in bound) || b < bound[k]) bound[k] = b
                  if (n == 1 || b == 0) stable = 1
              } } }
        END { safe = complete && covered
              for (k in bound) if (bound[k] > 1) safe = 0
              print (safe ? 1 : 0), (complete && stable ? 1 : 0) }'
}
# oracle MODEL CODE EXAM: the contest's answer, TRUE or FALSE ("" none)
oracle() {
    sed -n "s/^FORMULA $3 \([A-Z]*\).*/\1/p" "$ORACLE/$1/oracle-$2.out" 2>/dev/null | head -1
}
decided=0
lpdecided=0
for m in $(ls "$ORACLE"); do
    [ -f "$ORACLE/$m/model.pnml" ] || continue
    mkdir -p "$TMP/m/$m"
    cp "$ORACLE/$m/model.pnml" "$TMP/m/$m/model.pnml"
    "$BIN/pn-struct" -q -f json "$TMP/m/$m/model.pnml" > "$TMP/json" 2>/dev/null
    # the flows hold of the normal arcs alone
    grep -q '"other_arcs": false' "$TMP/json" || continue
    set -- $(verdicts "$TMP/json")
    [ -n "${STRUCT_VERBOSE:-}" ] && echo "$m: onesafe $1 stable $2"
    if [ "$1" = 1 ]; then
        want=$(oracle "$m" OS OneSafe)
        if [ -n "$want" ]; then
            decided=$((decided + 1))
            [ "$want" = TRUE ] && ok || bad "$m: the P-semiflows bound every place by 1, the contest says OneSafe $want"
        fi
    fi
    if [ "$2" = 1 ]; then
        want=$(oracle "$m" SM StableMarking)
        if [ -n "$want" ]; then
            decided=$((decided + 1))
            [ "$want" = TRUE ] && ok || bad "$m: a P-semiflow keeps a place's count, the contest says StableMarking $want"
        fi
    fi
    # the linear programs: every place's bound at most 1 makes OneSafe
    # TRUE; "live" or "not live" (Commoner's theorem, an empty siphon,
    # or the LP's repetitive and consistent) is the contest's Liveness
    if grep -q '"lp": {"end": "complete", "bounded": true' "$TMP/json" &&
       ! grep -o '"bounds": {[^}]*}' "$TMP/json" | sed 's/^"bounds": {//; s/}$//' | tr ',' '\n' | grep -qv ': [01]$'; then
        want=$(oracle "$m" OS OneSafe)
        if [ -n "$want" ]; then
            lpdecided=$((lpdecided + 1))
            [ -n "${STRUCT_VERBOSE:-}" ] && echo "$m: onesafe by the LP"
            [ "$want" = TRUE ] && ok || bad "$m: the LP bounds every place by 1, the contest says OneSafe $want"
        fi
    fi
    live=$(grep -o '"liveness": "[a-z ]*"' "$TMP/json" | sed 's/.*: "//; s/"$//')
    if [ "$live" = live ] || [ "$live" = "not live" ]; then
        want=$(oracle "$m" L Liveness)
        if [ -n "$want" ]; then
            lpdecided=$((lpdecided + 1))
            { [ "$live" = live ] && [ "$want" = TRUE ]; } ||
                { [ "$live" = "not live" ] && [ "$want" = FALSE ]; } && ok ||
                bad "$m: pn-struct says $live, the contest says Liveness $want"
        fi
    fi
done
echo "$decided answers decided by the P-semiflows, compared with the contest's"
echo "$lpdecided OneSafe and Liveness answers decided by the LP and the siphons, compared"
finish
