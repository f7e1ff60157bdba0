#!/bin/sh
# Transitions' timing from the command line: PIPE's stochastic nets keep
# every transition's kind, rate or weight, priority and server semantics
# through pn-info and pn-convert in every dialect; what a dialect cannot
# say, or what was not read, is refused (status 3), never dropped.
. "${srcdir:-tests}/lib.sh"
FIX="$srcdir/pnml"
CORPUS="${PN_CORPUS:-}"

# pipe_timing FILE: "id kind rate priority server" for each transition of a
# file in PIPE's layout (one element a line, as PIPE writes), read here
# with awk, not with the toolkit; labels PIPE leaves out take PIPE's
# defaults (immediate, weight 1, priority 1, single server)
pipe_timing() {
    awk '/<transition / {
             id = $0; sub(/.*<transition id="/, "", id); sub(/".*/, "", id)
             kind = "immediate"; rate = 1; prio = 1; server = "single"
             label = ""; inside = 1
         }
         inside && match($0, /<(rate|timed|priority|infiniteServer)>/) {
             label = substr($0, RSTART + 1, RLENGTH - 2)
         }
         inside && label != "" && /<value>/ {
             v = $0; sub(/.*<value>/, "", v); sub(/<\/value>.*/, "", v)
             if (label == "rate") rate = v
             else if (label == "priority") prio = v
             else if (label == "timed")
                 kind = tolower(v) == "true" ? "exponential" : "immediate"
             else server = tolower(v) == "true" ? "infinite" : "single"
             label = ""
         }
         /<\/transition>/ { print id, kind, rate, prio, server; inside = 0 }' "$1"
}

# dump_timing FILE: the same, from the toolkit's reading (pn-info --dump);
# an untimed transition: "id none 1 1 single"
dump_timing() {
    "$BIN/pn-info" --dump "$1" > "$TMP/dump" || bad "pn-info --dump $1 failed"
    awk '/^transition / {
             id = $0; sub(/^[^"]*id="/, "", id); sub(/".*/, "", id)
             kind = "none"; rate = 1; prio = 1; server = "single"
             n = split($0, f, " ")
             for (i = 1; i <= n; i++) {
                 if (f[i] ~ /^timing=/) kind = substr(f[i], 8)
                 else if (f[i] ~ /^rate=/) rate = substr(f[i], 6)
                 else if (f[i] ~ /^priority=/) prio = substr(f[i], 10)
                 else if (f[i] ~ /^server=/) server = substr(f[i], 8)
             }
             print id, kind, rate, prio, server
         }' "$TMP/dump"
}

# same_timing WANT GOT WHAT: the same timing, transition by transition in
# document order (TAPAAL's dialect makes ids of the names), rates compared
# as numbers ("1.0" is 1)
same_timing() {
    if awk -v what="$3" '
        NR == FNR { id[FNR] = $1; k[FNR] = $2; r[FNR] = $3; p[FNR] = $4
                    s[FNR] = $5; n++; next }
        { m++
          if (k[FNR] != $2 || r[FNR] + 0 != $3 + 0 || p[FNR] != $4 ||
              s[FNR] != $5) {
              print what ": " id[FNR] " was " k[FNR] " " r[FNR] " " p[FNR] \
                    " " s[FNR] ", is " $2 " " $3 " " $4 " " $5
              bad = 1
          } }
        END { if (m != n) { print what ": " n " transitions, " m " after"; bad = 1 }
              exit bad }' "$1" "$2" >&2; then ok; else bad "$3: timing changed"; fi
}

# ---- a PIPE stochastic net of PIPE's own examples -----------------------
if [ -n "$CORPUS" ] && [ -f "$CORPUS/pipe/Courier_Protocol.xml" ]; then
    cp "$CORPUS/pipe/Courier_Protocol.xml" "$TMP/courier.xml"
    pipe_timing "$TMP/courier.xml" > "$TMP/want"
    # what the file says: 34 transitions, 21 timed with rates from
    # 482.1600771 to 12820.51282, 13 immediate
    [ "$(wc -l < "$TMP/want")" -eq 34 ] && ok || bad "courier: $(wc -l < "$TMP/want") transitions parsed"
    [ "$(grep -c ' exponential ' "$TMP/want")" -eq 21 ] && ok || bad "courier: not 21 timed transitions"
    awk '$2 == "exponential" { if (min == "" || $3 + 0 < min) min = $3 + 0
                               if ($3 + 0 > max) max = $3 + 0 }
         END { exit !(min == 482.1600771 && max == 12820.51282) }' "$TMP/want" &&
        ok || bad "courier: the rates are not 482.1600771 to 12820.51282"
    expect 0 "$BIN/pn-info" "$TMP/courier.xml"
    has "$TMP/out" "timing:      21 timed (exponential), 13 immediate"
    lacks "$TMP/out" "timed transitions (rates"
    expect 0 "$BIN/pn-info" --format json "$TMP/courier.xml"
    has "$TMP/out" '"timing": {"none": 0, "immediate": 13, "exponential": 21, "deterministic": 0}'
    dump_timing "$TMP/courier.xml" > "$TMP/got"
    same_timing "$TMP/want" "$TMP/got" "courier read"
    # PIPE's dialect: the labels PIPE reads, every rate digit for digit
    expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/c-pipe.xml" "$TMP/courier.xml"
    lacks "$TMP/err" "timed transition"
    pipe_timing "$TMP/c-pipe.xml" > "$TMP/got"
    same_timing "$TMP/want" "$TMP/got" "courier in PIPE's dialect"
    tr -d '\r' < "$TMP/courier.xml" | sed -n '/<rate>/{n;s/^ *//;p;}' | sort -u > "$TMP/rates"
    [ "$(wc -l < "$TMP/rates")" -ge 10 ] && ok || bad "courier: its rates not found"
    while read -r v; do has "$TMP/c-pipe.xml" "$v"; done < "$TMP/rates"
    dump_timing "$TMP/c-pipe.xml" > "$TMP/got"
    same_timing "$TMP/want" "$TMP/got" "courier in PIPE's dialect, read back"
    # written again, the same bytes
    expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/c-pipe2.xml" "$TMP/c-pipe.xml"
    cmp -s "$TMP/c-pipe.xml" "$TMP/c-pipe2.xml" && ok || bad "courier: a second PIPE write differs"
    # the other dialects keep it in our block; from there back to PIPE
    for d in standard strict tapaal woped; do
        expect 0 "$BIN/pn-convert" --dialect "$d" -o "$TMP/c-$d.pnml" "$TMP/courier.xml"
        has "$TMP/c-$d.pnml" '<toolspecific tool="pn-toolkit" version="1">'
        has "$TMP/c-$d.pnml" 'kind="exponential" rate="482.1600771" priority="1" server="single"/>'
        dump_timing "$TMP/c-$d.pnml" > "$TMP/got"
        same_timing "$TMP/want" "$TMP/got" "courier in the $d dialect"
        expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/c-$d.xml" "$TMP/c-$d.pnml"
        pipe_timing "$TMP/c-$d.xml" > "$TMP/got"
        same_timing "$TMP/want" "$TMP/got" "courier from the $d dialect to PIPE's"
    done
    # programs that do not use the timing say so, as the reader said what
    # it dropped
    expect 0 "$BIN/pn-reach" "$TMP/courier.xml"
    has "$TMP/err" "pn-reach: warning: $TMP/courier.xml: 21 timed and 13 immediate transitions: their timing is not used here (the net is taken untimed)"
    expect 0 "$BIN/pn-convert" -o /dev/null "$TMP/courier.xml"
    lacks "$TMP/err" "not used here"
else
    echo "PN_CORPUS not set: the PIPE corpus net is skipped"
fi

# every PIPE file of the corpus: kept through PIPE's dialect
for f in "${CORPUS:-/nonexistent}"/pipe/*.xml; do
    [ -f "$f" ] || continue
    pipe_timing "$f" > "$TMP/want"
    expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/p.xml" "$f"
    pipe_timing "$TMP/p.xml" > "$TMP/got"
    same_timing "$TMP/want" "$TMP/got" "$(basename "$f") in PIPE's dialect"
done

# ---- GreatSPN -------------------------------------------------------------
# GreatSPN's PNML export (PNMLFormat.exportGspn) writes no timing: no rate,
# delay, weight, priority or servers, only names, positions, markings,
# arcs and tags (GreatSPN reads every PNML transition back as exponential
# of rate 1).  Its files read untimed, and stay untimed both ways.
for f in "${CORPUS:-/nonexistent}"/greatspn/*.pnml; do
    [ -f "$f" ] || continue
    grep -qE '<(rate|timed|priority|infiniteServer|delay)>' "$f" && bad "$f has timing" || ok
    expect 0 "$BIN/pn-info" "$f"
    lacks "$TMP/out" "timing:"
    expect 0 "$BIN/pn-convert" -o "$TMP/g.pnml" "$f"
    lacks "$TMP/g.pnml" "<timing"
    expect 0 "$BIN/pn-info" "$TMP/g.pnml"
    lacks "$TMP/out" "timing:"
done

# ---- what a dialect cannot say is refused --------------------------------
# a deterministic delay (our own block): PIPE has none
cat > "$TMP/det.pnml" <<'XML'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><transition id="t"/><arc id="a" source="p" target="t"/></page>
<toolspecific tool="pn-toolkit" version="1"><timing node="t" kind="deterministic" rate="2.5"/></toolspecific></net></pnml>
XML
expect 0 "$BIN/pn-info" "$TMP/det.pnml"
has "$TMP/out" "timing:      1 timed (deterministic)"
expect 3 "$BIN/pn-convert" --dialect pipe -o "$TMP/det.xml" "$TMP/det.pnml"
has "$TMP/err" "PIPE has no deterministic transitions (only immediate and exponential ones): transition 't'"
[ -e "$TMP/det.xml" ] && bad "a refused conversion left a file" || ok
expect 0 "$BIN/pn-convert" --dialect strict -o "$TMP/det-strict.pnml" "$TMP/det.pnml"
has "$TMP/det-strict.pnml" '<timing node="t" kind="deterministic" rate="2.5" priority="1" server="single"/>'
# a rate PIPE gives as an expression of the marking (its rate grammar:
# "#(P0)*2"): read, and written back as it is in every dialect (more in
# cli-rates.sh)
cat > "$TMP/functional.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<pnml>
<net id="Net-One" type="P/T net">
<place id="P0">
<graphics><position x="150.0" y="90.0"/></graphics>
<name><value>P0</value><graphics/></name>
<initialMarking><value>Default,2</value><graphics/></initialMarking>
</place>
<transition id="T0">
<graphics><position x="150.0" y="150.0"/></graphics>
<name><value>T0</value><graphics/></name>
<infiniteServer><value>false</value></infiniteServer>
<timed><value>true</value></timed>
<priority><value>1</value></priority>
<orientation><value>0</value></orientation>
<rate><value>#(P0)*2</value></rate>
</transition>
<arc id="P0 TO T0" source="P0" target="T0">
<graphics/>
<inscription><value>Default,1</value><graphics/></inscription>
<tagged><value>false</value></tagged>
<type value="normal"/>
</arc>
</net>
</pnml>
XML
expect 0 "$BIN/pn-info" "$TMP/functional.xml"
lacks "$TMP/out" "not a number"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/functional.out" "$TMP/functional.xml"
has "$TMP/functional.out" "<value>#(P0)*2</value>"
expect 0 "$BIN/pn-convert" --dialect standard -o "$TMP/functional.pnml" "$TMP/functional.xml"
has "$TMP/functional.pnml" 'expression="#(P0)*2"'
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/functional.out" "$TMP/functional.pnml"
has "$TMP/functional.out" "<value>#(P0)*2</value>"
# an untimed transition of a timed net: PIPE has none, it is written as
# PIPE's default, and said
cat > "$TMP/mixed.pnml" <<'XML'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<transition id="t"/><transition id="u"/></page>
<toolspecific tool="pn-toolkit" version="1"><timing node="t" kind="exponential" rate="4"/></toolspecific></net></pnml>
XML
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/mixed.xml" "$TMP/mixed.pnml"
has "$TMP/err" "pn-convert: note: 1 untimed transition written as PIPE's default (immediate, weight 1, priority 1)"
expect 0 "$BIN/pn-convert" -o "$TMP/mixed2.pnml" "$TMP/mixed.pnml"
lacks "$TMP/err" "untimed"
finish
