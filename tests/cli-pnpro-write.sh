#!/bin/sh
# pn-convert --dialect pnpro: GreatSPN's project files written, so that a
# GreatSPN file read, written and read again is the same net (every rate,
# weight, priority and server semantics), and PIPE's nets keep their
# timing through it; what PNPRO cannot say is refused (status 3).
. "${srcdir:-tests}/lib.sh"
FIX="$srcdir/pnpro"
CORPUS="${PN_CORPUS:-}"

# round NAME FILE [--net ID]: FILE read, written as PNPRO, read again: the
# same dump; written again: the same bytes
round() {
    name=$1; f=$2; shift 2
    expect 0 "$BIN/pn-info" --dump "$@" "$f"
    cp "$TMP/out" "$TMP/d1"
    expect 0 "$BIN/pn-convert" --dialect pnpro "$@" -o "$TMP/w.PNPRO" "$f"
    expect 0 "$BIN/pn-info" --dump "$TMP/w.PNPRO"
    cmp -s "$TMP/d1" "$TMP/out" && ok || { bad "$name: not the same net after PNPRO"; diff "$TMP/d1" "$TMP/out" | head -5 >&2; }
    expect 0 "$BIN/pn-convert" --dialect pnpro -o "$TMP/w2.PNPRO" "$TMP/w.PNPRO"
    cmp -s "$TMP/w.PNPRO" "$TMP/w2.PNPRO" && ok || bad "$name: a second PNPRO write differs"
}

# ---- GreatSPN's own files -------------------------------------------------
round FMS "$FIX/FlexibleManufacturingSystem.PNPRO"
round ReaderWriter "$FIX/ReaderWriter.PNPRO"
for n in 1 2 3 4; do
    round "TestFiringTimes $n" "$FIX/TestFiringTimes.PNPRO" --net "GSPN $n"
done
# timing that was not read (a general distribution) is not written
expect 3 "$BIN/pn-convert" --dialect pnpro --net "GSPN 5" -o "$TMP/g5.PNPRO" "$FIX/TestFiringTimes.PNPRO"
has "$TMP/err" "the timing of transition 'T1' was not read: writing the net would change it"
[ -e "$TMP/g5.PNPRO" ] && bad "a refused conversion left a file" || ok
# the same chain solved from both
expect 0 "$BIN/pn-solve" "$FIX/ReaderWriter.PNPRO"
sed 1d "$TMP/out" > "$TMP/s1"
expect 0 "$BIN/pn-convert" --dialect pnpro -o "$TMP/rw.PNPRO" "$FIX/ReaderWriter.PNPRO"
expect 0 "$BIN/pn-solve" "$TMP/rw.PNPRO"
sed 1d "$TMP/out" > "$TMP/s2"
cmp -s "$TMP/s1" "$TMP/s2" && ok || bad "ReaderWriter solved differently after PNPRO"

# ---- every timing attribute, as GreatSPN reads it -------------------------
cat > "$TMP/all.PNPRO" <<'XML'
<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<project name="all" version="121">
  <gspn name="all">
    <nodes>
      <place marking="4" name="P" x="1" y="1"/>
      <place name="Q" x="5" y="1"/>
      <transition delay="0.25" name="inf" type="EXP" x="3" y="1"/>
      <transition delay="1.5e-3" name="one" nservers="1" type="EXP" x="3" y="3"/>
      <transition delay="2" name="three" nservers="3" type="EXP" x="3" y="5"/>
      <transition name="imm" priority="3" type="IMM" weight="2.5" x="3" y="7"/>
      <transition name="dflt" type="IMM" x="3" y="9"/>
      <transition delay="I[2.5]" name="det" type="GEN" x="3" y="11"/>
    </nodes>
    <edges>
      <arc head="inf" kind="INPUT" mult="2" tail="P"/>
      <arc head="Q" kind="OUTPUT" tail="inf"/>
      <arc head="one" kind="INHIBITOR" mult="3" tail="Q"/>
      <arc head="P" kind="OUTPUT" tail="one"/>
      <arc head="three" kind="INPUT" tail="Q"/>
      <arc head="imm" kind="INPUT" tail="P"/>
      <arc head="det" kind="INPUT" tail="Q"/>
    </edges>
  </gspn>
</project>
XML
round all "$TMP/all.PNPRO"
has "$TMP/w.PNPRO" '<transition name="inf" type="EXP" delay="0.25" x='
has "$TMP/w.PNPRO" '<transition name="one" type="EXP" delay="0.0015" nservers="1" x='
has "$TMP/w.PNPRO" '<transition name="three" type="EXP" delay="2" nservers="3" x='
has "$TMP/w.PNPRO" '<transition name="imm" type="IMM" weight="2.5" priority="3" x='
has "$TMP/w.PNPRO" '<transition name="det" type="GEN" delay="I[2.5]" x='
has "$TMP/w.PNPRO" '<arc head="one" kind="INHIBITOR" mult="3" tail="Q"/>'
has "$TMP/w.PNPRO" '<place marking="4" name="P" x='
expect 0 "$BIN/pn-info" --dump "$TMP/w.PNPRO"
has "$TMP/out" 'label="inf" timing=exponential rate=0.25 priority=1 server=infinite'
has "$TMP/out" 'label="three" timing=exponential rate=2 priority=1 server=k servers=3'
has "$TMP/out" 'label="imm" timing=immediate rate=2.5 priority=3 server=single'
has "$TMP/out" 'label="det" timing=deterministic rate=2.5 priority=1 server=infinite'

# ---- what PNPRO cannot say: refused, no file ------------------------------
refuse() { # FILE TEXT
    expect 3 "$BIN/pn-convert" --dialect pnpro -o "$TMP/r.PNPRO" "$1"
    has "$TMP/err" "$2"
    [ -e "$TMP/r.PNPRO" ] && bad "a refused conversion left a file" || ok
}
cat > "$TMP/cap.pnml" <<'XML'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"/><transition id="t"/>
<arc id="a" source="p" target="t"/>
</page>
<toolspecific tool="pn-toolkit" version="1"><capacity node="p" value="2"/></toolspecific>
</net></pnml>
XML
refuse "$TMP/cap.pnml" "PNPRO has no place capacities: place 'p'"
sed -e 's|<capacity node="p" value="2"/>|<timing node="t" kind="deterministic" rate="2" server="single"/>|' "$TMP/cap.pnml" > "$TMP/det.pnml"
refuse "$TMP/det.pnml" "transition 't': GreatSPN's deterministic transitions (GEN, I[d]) are infinite-server"
sed -e 's|<capacity node="p" value="2"/>|<timing node="t" kind="exponential" rate="2" expression="#(p)*2"/>|' "$TMP/cap.pnml" > "$TMP/expr.pnml"
refuse "$TMP/expr.pnml" "transition 't': its rate '#(p)*2' is an expression of PIPE's grammar, not of GreatSPN's"

# ---- PIPE's nets: every rate, weight, priority and server through PNPRO ---
# (an untimed transition is written as GreatSPN's default, exponential of
# rate 1, which is how pn-solve and pn-run take it)
timing() {
    "$BIN/pn-info" --dump "$1" | grep '^transition' |
        sed -e '/timing=/!s/$/ timing=exponential rate=1 priority=1 server=single/' \
            -e 's/.*\(timing=[a-z]* rate=[^ ]* priority=[0-9]* server=[a-z]*\( servers=[0-9]*\)\{0,1\}\).*/\1/'
}
for f in "${CORPUS:-/nonexistent}"/pipe/*.xml; do
    [ -f "$f" ] || continue
    case "$f" in *Coloured*) continue ;; esac
    expect 0 "$BIN/pn-convert" --dialect pnpro -o "$TMP/p.PNPRO" "$f"
    timing "$f" > "$TMP/t1"
    timing "$TMP/p.PNPRO" > "$TMP/t2"
    [ -s "$TMP/t1" ] && cmp -s "$TMP/t1" "$TMP/t2" && ok || bad "$(basename "$f"): timing changed through PNPRO"
done
[ -n "$CORPUS" ] || echo "PN_CORPUS not set: PIPE's corpus through PNPRO is skipped"
finish
