# a negative step number: refused as such (not read as 2^64 - 5); exit 1
want_exit=1
want_msg="negative"
run() {
    cat > k.pnml <<'NET'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><transition id="t"/>
<arc id="a" source="p" target="t"/>
</page></net></pnml>
NET
    printf '# pn-run trace 2\nS -5 t\nE dead 1\n' > neg.trace
    "$BIN/pn-dot" --trace neg.trace --step 1 k.pnml -o k.svg
}
check() { ! grep -q '18446744073709551611' err || { echo "read as 2^64 - 5"; return 1; }; }
