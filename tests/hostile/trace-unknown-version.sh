# a trace of a format version this reader does not know: refused, the
# version named, exit 1 (the trace could not be read)
want_exit=1
want_msg="version 7"
run() {
    cat > k.pnml <<'NET'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><initialMarking><text>1</text></initialMarking></place><transition id="t"/>
<arc id="a" source="p" target="t"/>
</page></net></pnml>
NET
    printf '# pn-run trace 7\nS 1 t\nE dead 1\n' > v7.trace
    "$BIN/pn-dot" --trace v7.trace --step 1 k.pnml -o k.svg
}
