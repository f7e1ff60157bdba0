# a net whose ids hold blanks, tabs, newlines and backslashes (the PNML
# reader takes them): pn-run's trace encodes them, and pn-dot reads it
# back against the same net (not "belongs to another net")
want_exit=0
run() {
    cat > odd.pnml <<'NET'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n x&#10;y" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p 0&#10;q"><initialMarking><text>2</text></initialMarking></place>
<place id="a\b&#9;c=1"/>
<transition id="t 1"/><transition id="u&#10;v\x41&#13;"/>
<arc id="x y" source="p 0&#10;q" target="t 1"/><arc id="2" source="t 1" target="a\b&#9;c=1"/><arc id="3" source="a\b&#9;c=1" target="u&#10;v\x41&#13;"/>
</page></net></pnml>
NET
    "$BIN/pn-run" --trace odd.trace --snapshot 1 odd.pnml > /dev/null &&
    "$BIN/pn-dot" --trace odd.trace --step 2 odd.pnml -o step.svg &&
    "$BIN/pn-dot" --trace odd.trace --timeline odd.pnml -o timeline.svg
}
check() {
    # one record per line: 4 S, 4 M, 1 E, the comments
    [ "$(grep -c '^[SME] ' odd.trace)" = 8 ] || { echo "records:"; cat odd.trace; return 1; }
    grep -q '^E dead 3$' odd.trace || { echo "no end record"; return 1; }
}
