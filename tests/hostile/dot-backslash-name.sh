# names and ids with Graphviz's escapes (\N, \G, \E, \T, \H, \L, \n, \l,
# \\) are drawn as written, not expanded: the name a\Nb draws a\Nb, not
# a<node>b, and the id p\L stays the SVG id p\L
want_exit=0
run() {
    cat > bs.pnml <<'NET'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n\G" type="http://www.pnml.org/version-2009/grammar/ptnet"><name><text>net \G \E</text></name><page id="g">
<place id="p\L"><name><text>a\Nb</text></name></place>
<transition id="t\E"><name><text>c\\d \T\H\l\n</text></name></transition>
<arc id="a" source="p\L" target="t\E"/>
</page></net></pnml>
NET
    "$BIN/pn-dot" --labels name --ids bs.pnml
}
check() {
    for s in '>a\Nb<' '>[p\L]<' '>c\\d \T\H\l\n<' '>[t\E]<' 'id="p\L"' \
             'id="t\E"' '>net \G \E<'; do
        grep -qF -- "$s" out || { echo "the SVG lacks $s"; return 1; }
    done
}
