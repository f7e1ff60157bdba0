#!/bin/sh
# Other tools' stochastic nets: GreatSPN's PNPRO project files
# (tests/pnpro/, copied unchanged from greatspn/SOURCES: see
# tests/pnpro/README.md) and pm4py's StochasticPetriNet block (the
# corpus's pm4py file): read with the values the file gives (checked here
# with awk on the file, not with the toolkit), kept through pn-convert,
# and what cannot be read refused at its line.
. "${srcdir:-tests}/lib.sh"
FIX="$srcdir/pnpro"

# pnpro_timing FILE: "id kind rate priority server" for each transition of
# the first <gspn> of FILE, as GreatSPN's Transition.exchangeXML reads
# it: type EXP unless said; delay (the rate) 1.0, weight 1.0, priority 1
# and nservers Infinite when left out; a constant's name stands for its
# value
pnpro_timing() {
    awk 'function attr(s, a,   v) {
             if (!match(s, " " a "=\"[^\"]*\"")) return ""
             v = substr(s, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
             return v
         }
         function val(v) { return (v in c) ? c[v] : v }
         NR == FNR { if (/<\/gspn>/) exit0 = 1
                     if (!exit0 && /<constant /) c[attr($0, "name")] = attr($0, "value")
                     next }
         /<\/gspn>/ { done = 1 }
         done || !/<transition / { next }
         { t = attr($0, "type"); if (t == "") t = "EXP"
           if (t == "IMM") {
               w = attr($0, "weight"); p = attr($0, "priority")
               print attr($0, "name"), "immediate", val(w == "" ? 1 : w),
                     val(p == "" ? 1 : p), "single"
           } else {
               d = attr($0, "delay"); s = attr($0, "nservers")
               s = s == "" || s == "Infinite" ? "infinite" : val(s) == 1 ? "single" : "k:" val(s)
               print attr($0, "name"), "exponential", val(d == "" ? 1 : d), 1, s
           } }' "$1" "$1"
}

# dump_timing FILE: the same, from the toolkit's reading (pn-info --dump)
dump_timing() {
    "$BIN/pn-info" --dump "$1" > "$TMP/dump" 2>/dev/null || bad "pn-info --dump $1 failed"
    awk '/^transition / {
             id = $0; sub(/^[^"]*id="/, "", id); sub(/".*/, "", id)
             kind = "none"; rate = 1; prio = 1; server = "single"
             n = split($0, f, " ")
             for (i = 1; i <= n; i++) {
                 if (f[i] ~ /^timing=/) kind = substr(f[i], 8)
                 else if (f[i] ~ /^rate=/) rate = substr(f[i], 6)
                 else if (f[i] ~ /^priority=/) prio = substr(f[i], 10)
                 else if (f[i] ~ /^server=/) server = substr(f[i], 8)
                 else if (f[i] ~ /^servers=/) server = "k:" substr(f[i], 9)
             }
             print id, kind, rate, prio, server
         }' "$TMP/dump"
}

# same WANT GOT WHAT: the same lines, numbers compared as numbers
same() {
    if awk -v what="$3" '
        NR == FNR { w[FNR] = $0; n++; next }
        { m++; split(w[FNR], a, " ")
          if (a[1] != $1 || a[2] != $2 || a[3] + 0 != $3 + 0 || a[4] != $4 ||
              a[5] != $5) { print what ": was " w[FNR] ", is " $0; bad = 1 } }
        END { if (m != n) { print what ": " n " transitions, " m " after"; bad = 1 }
              exit bad }' "$1" "$2" >&2; then ok; else bad "$3: timing differs"; fi
}

for f in ReaderWriter FlexibleManufacturingSystem TestFiringTimes; do
    cp "$FIX/$f.PNPRO" "$TMP/$f.PNPRO"
    pnpro_timing "$TMP/$f.PNPRO" > "$TMP/want"
    [ -s "$TMP/want" ] && ok || bad "$f: no transition found by awk"
    dump_timing "$TMP/$f.PNPRO" > "$TMP/got"
    same "$TMP/want" "$TMP/got" "$f read"
    # kept in our block, in the standard and TAPAAL's dialects
    for d in standard tapaal; do
        expect 0 "$BIN/pn-convert" -q --dialect "$d" -o "$TMP/$f-$d.pnml" "$TMP/$f.PNPRO"
        dump_timing "$TMP/$f-$d.pnml" > "$TMP/got"
        same "$TMP/want" "$TMP/got" "$f through the $d dialect"
    done
done

# what the files say, by hand: ReaderWriter's marking N = 5 (a constant
# defined after its use), its template K at its last binding 1, its
# inhibitor arc; FMS's rates lambda1 = 1.2 and priorities 2 and 3
cp "$FIX/ReaderWriter.PNPRO" "$TMP/rw.PNPRO"
expect 0 "$BIN/pn-info" --dump "$TMP/rw.PNPRO"
has "$TMP/out" 'id="Think" label="Think" marking=5'
has "$TMP/out" 'id="NumWrite" label="NumWrite" marking=1'
has "$TMP/out" 'inhibitor weight=1'
has "$TMP/out" 'id="arrival" label="arrival" timing=exponential rate=1 priority=1 server=infinite'
has "$TMP/out" 'id="is_read" label="is_read" timing=immediate rate=1 priority=1 server=single'
expect 0 "$BIN/pn-info" "$TMP/rw.PNPRO"
has "$TMP/out" "template parameters read at their last binding in GreatSPN: 'K' = 1"
lacks "$TMP/out" "ignored"
has "$TMP/out" "timing:      3 timed (exponential), 4 immediate"
has "$TMP/out" "arcs:        19 (normal 18, inhibitor 1, read 0, reset 0)"
cp "$FIX/FlexibleManufacturingSystem.PNPRO" "$TMP/fms.PNPRO"
expect 0 "$BIN/pn-info" --dump "$TMP/fms.PNPRO"
has "$TMP/out" 'id="ew1" label="ew1" timing=exponential rate=1.2 priority=1 server=infinite'
has "$TMP/out" 'id="repSpares" label="repSpares" timing=immediate rate=1 priority=2'
has "$TMP/out" 'id="repM3" label="repM3" timing=immediate rate=1 priority=3'

# TestFiringTimes: seven nets; nservers="N" with N = 2 is two servers;
# GEN I[1.0] a deterministic delay; other general distributions and
# marking-dependent multiplicities are not numbers of the net
cp "$FIX/TestFiringTimes.PNPRO" "$TMP/ft.PNPRO"
expect 0 "$BIN/pn-info" --dump "$TMP/ft.PNPRO"
has "$TMP/out" 'id="T1" label="T1" timing=exponential rate=1 priority=1 server=k servers=2'
expect 0 "$BIN/pn-convert" -o /dev/null "$TMP/ft.PNPRO"
has "$TMP/err" "the document holds 7 nets"
expect 0 "$BIN/pn-convert" -q --net "GSPN 3" -o "$TMP/ft3.pnml" "$TMP/ft.PNPRO"
has "$TMP/ft3.pnml" '<timing node="D0" kind="deterministic" rate="1" priority="1" server="infinite"/>'
expect 3 "$BIN/pn-convert" --dialect pipe --net "GSPN 3" -o "$TMP/ft3.xml" "$TMP/ft.PNPRO"
has "$TMP/err" "PIPE has no deterministic transitions"
expect 3 "$BIN/pn-convert" --dialect pipe -o "$TMP/ft1.xml" "$TMP/ft.PNPRO"
has "$TMP/err" "PIPE has single and infinite servers only: transition 'T1' has 2 servers"
expect 0 "$BIN/pn-info" --net "GSPN 6" "$TMP/ft.PNPRO"
has "$TMP/out" "ignored: 4 rates or priorities that are not numbers"
expect 3 "$BIN/pn-convert" --net "GSPN 6" -o "$TMP/ft6.pnml" "$TMP/ft.PNPRO"
has "$TMP/err" "the timing of transition 'D2' was not read"
expect 1 "$BIN/pn-info" --net "GSPN 7" "$TMP/ft.PNPRO"
has "$TMP/err" "ft.PNPRO:214:35: 'Max[1,#P3]' depends on the marking"

# a coloured net (Multiprocessor) is refused at its first colour class
cp "$FIX/Multiprocessor.PNPRO" "$TMP/mp.PNPRO"
expect 1 "$BIN/pn-info" "$TMP/mp.PNPRO"
has "$TMP/err" "mp.PNPRO:5:7: a colour class: coloured GreatSPN nets are not read"

# malformed numbers, each at its own line
bad_pnpro() {
    printf '<?xml version="1.0"?>\n<project name="x" version="121">\n<gspn name="g"><nodes>\n%s\n</nodes><edges>\n%s\n</edges></gspn></project>\n' "$1" "$2" > "$TMP/bad.PNPRO"
}
bad_pnpro '<place name="p" marking="M"/>' ''
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "bad.PNPRO:4:17: expression 'M': 'M' names no constant"
bad_pnpro '<place name="p"/><transition name="t" type="EXP" delay="-2"/>' ''
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "bad.PNPRO:4:50: '-2' is -2: a rate must be above 0"
bad_pnpro '<transition name="t" type="IMM" weight="1/0"/>' ''
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "expression '1/0': its value is not a finite number"
bad_pnpro '<place name="p" marking="2.5"/>' ''
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "marking '2.5' is 2.5, not a whole number"
bad_pnpro '<place name="p"/><transition name="t" nservers="(2"/>' '<arc head="t" kind="INPUT" tail="p"/>'
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "expression '(2': ')' expected"
bad_pnpro '<constant consttype="INTEGER" name="A" value="B"/><constant consttype="INTEGER" name="B" value="A"/><place name="p" marking="A"/>' ''
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "is defined through itself"
bad_pnpro '<place name="p"/><transition name="t"/>' '<arc head="t" kind="READ" tail="p"/>'
expect 1 "$BIN/pn-info" "$TMP/bad.PNPRO"
has "$TMP/err" "arc kind 'READ' is not one of INPUT, OUTPUT, INHIBITOR"
printf '<project name="x" version="121"><measures/></project>\n' > "$TMP/none.PNPRO"
expect 1 "$BIN/pn-info" "$TMP/none.PNPRO"
has "$TMP/err" "the project has no <gspn> page"

# ---- pm4py's StochasticPetriNet block ---------------------------------------
# spn_timing FILE: "id kind rate priority" for each transition with a
# block, as pm4py's importer reads it (one property a line, as pm4py's
# exporter writes them): EXPONENTIAL's parameter is the rate, IMMEDIATE's
# weight its rate here; other distributions are not read
spn_timing() {
    awk -v OFS='|' '/<transition id="/ { id = $0; sub(/.*<transition id="/, "", id); sub(/".*/, "", id) }
         /<property key="/ { k = $0; sub(/.*key="/, "", k); sub(/".*/, "", k)
                             v = $0; sub(/.*">/, "", v); sub(/<.*/, "", v); p[k] = v }
         /<\/toolspecific>/ && ("distributionType" in p) {
             t = p["distributionType"]
             if (t == "IMMEDIATE") print id, "immediate", p["weight"], p["priority"]
             else if (t == "EXPONENTIAL") print id, "exponential", p["distributionParameters"], p["priority"]
             else if (t == "DETERMINISTIC") print id, "deterministic", p["distributionParameters"], p["priority"]
             else print id, "lost", 0, 0
             delete p }' "$1"
}
spn_dump() {
    "$BIN/pn-info" --dump "$1" > "$TMP/dump" 2>/dev/null || bad "pn-info --dump $1 failed"
    awk -v OFS='|' '/^transition / {
             id = $0; sub(/^[^"]*id="/, "", id); sub(/".*/, "", id)
             kind = "none"; rate = 0; prio = 0
             n = split($0, f, " ")
             for (i = 1; i <= n; i++) {
                 if (f[i] ~ /^timing=/) kind = substr(f[i], 8)
                 else if (f[i] ~ /^rate=/) rate = substr(f[i], 6)
                 else if (f[i] ~ /^priority=/) prio = substr(f[i], 10)
                 else if (f[i] == "timing_lost") kind = "lost"
             }
             print id, kind, rate, prio
         }' "$TMP/dump"
}
CORPUS="${PN_CORPUS:-}"
if [ -n "$CORPUS" ] && [ -f "$CORPUS/pm4py/stochastic_running_example.pnml" ]; then
    cp "$CORPUS/pm4py/stochastic_running_example.pnml" "$TMP/spn.pnml"
    spn_timing "$TMP/spn.pnml" | sort > "$TMP/want"
    [ "$(wc -l < "$TMP/want")" -eq 14 ] && ok || bad "pm4py: $(wc -l < "$TMP/want") blocks found by awk"
    [ "$(grep -c '|exponential|' "$TMP/want")" -eq 2 ] && ok || bad "pm4py: not 2 exponential"
    spn_dump "$TMP/spn.pnml" | sort > "$TMP/got"
    if awk -F'|' 'NR == FNR { w[FNR] = $0; n++; next }
        { m++; split(w[FNR], a, "|")
          if (a[1] != $1 || a[2] != $2 || a[3] + 0 != $3 + 0 || a[4] != $4) {
              print "pm4py: was " w[FNR] ", is " $0; bad = 1 } }
        END { exit bad || m != n }' "$TMP/want" "$TMP/got" >&2; then ok; else bad "pm4py read: timing differs"; fi
    expect 0 "$BIN/pn-info" "$TMP/spn.pnml"
    has "$TMP/out" "timing:      2 timed (exponential), 7 immediate, 5 untimed"
    has "$TMP/out" "ignored: 5 delay distributions other than exponential and deterministic (pm4py's UNIFORM, NORMAL, LOGNORMAL, GAMMA: not read, their blocks kept)"
    # the blocks are kept, so the dialects that keep them write the net;
    # PIPE's keeps none and refuses it
    for d in standard strict woped; do
        expect 0 "$BIN/pn-convert" -q --dialect "$d" -o "$TMP/spn-$d.pnml" "$TMP/spn.pnml"
        has "$TMP/spn-$d.pnml" '<property key="distributionParameters">10799.99988674513;85800.00016545928</property>'
        # ids lose their spaces in writing (PNML ids are NCNames)
        spn_dump "$TMP/spn-$d.pnml" | sort > "$TMP/got2"
        tr ' ' '_' < "$TMP/got" | sort > "$TMP/a"
        cmp -s "$TMP/a" "$TMP/got2" && ok || bad "pm4py through the $d dialect: timing changed"
    done
    expect 3 "$BIN/pn-convert" --dialect pipe -o "$TMP/spn.xml" "$TMP/spn.pnml"
    has "$TMP/err" "the timing of transition 'reinitiate request' was not read"
else
    echo "PN_CORPUS not set: the pm4py corpus net is skipped"
fi

# a deterministic delay and malformed values, in pm4py's exporter's shape
spn() {
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<pnml>\n  <net id="net1" type="http://www.pnml.org/version-2009/grammar/pnmlcoremodel">\n    <page id="n0">\n      <transition id="t">\n        <name>\n          <text>t</text>\n        </name>\n        <toolspecific tool="StochasticPetriNet" version="0.2">\n          <property key="distributionType">%s</property>\n          <property key="distributionParameters">%s</property>\n          <property key="priority">%s</property>\n          <property key="invisible">false</property>\n          <property key="weight">1.0</property>\n        </toolspecific>\n      </transition>\n    </page>\n  </net>\n</pnml>\n' "$1" "$2" "$3" > "$TMP/spn1.pnml"
}
spn DETERMINISTIC 2.5 0
expect 0 "$BIN/pn-info" --dump "$TMP/spn1.pnml"
has "$TMP/out" 'timing=deterministic rate=2.5 priority=0 server=single'
spn EXPONENTIAL -1 0
expect 1 "$BIN/pn-info" "$TMP/spn1.pnml"
has "$TMP/err" "spn1.pnml:11:49: StochasticPetriNet distributionParameters '-1' is not a finite number >= 0"
spn EXPONENTIAL nan 0
expect 1 "$BIN/pn-info" "$TMP/spn1.pnml"
has "$TMP/err" "distributionParameters 'nan' is not a finite number >= 0"
spn EXPONENTIAL 2 x
expect 1 "$BIN/pn-info" "$TMP/spn1.pnml"
has "$TMP/err" "spn1.pnml:12:35: StochasticPetriNet priority 'x' is not a whole number >= 0"
spn ERLANG 2 0
expect 1 "$BIN/pn-info" "$TMP/spn1.pnml"
has "$TMP/err" "distributionType 'ERLANG' is not one of pm4py's"

finish
