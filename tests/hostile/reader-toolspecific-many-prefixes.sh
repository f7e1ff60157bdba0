# a place's tool-specific block using 40 namespace prefixes declared
# above it, the last one 60,000 times: each is declared once on the
# block's root (past 32 they were declared again at each use, a copy
# libxml2 refused with 'Attribute xmlns:q39 redefined'), in linear time
# (each use walked the whole block: 12 s)
want_exit=0
run() {
    awk 'BEGIN {
        printf "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\""
        for (i = 0; i < 40; i++) printf " xmlns:q%d=\"urn:q%d\"", i, i
        printf "><net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\"><place id=\"p\"><toolspecific tool=\"a\" version=\"1\">"
        for (i = 0; i < 40; i++) printf "<q%d:e/>", i
        for (i = 0; i < 60000; i++) printf "<q39:e/>\n"
        print "<q39:f q39:a=\"1\"/></toolspecific></place></page></net></pnml>" }' > ns.pnml
    start=$(date +%s)
    "$BIN/pn-convert" -o copy.pnml ns.pnml || return $?
    end=$(date +%s)
    [ $((end - start)) -lt 5 ] || { echo "took $((end - start)) s" >&2; return 9; }
    "$BIN/pn-info" copy.pnml
}
check() {
    grep -q 'places: *1' out || { echo "copy not read back"; return 1; }
    for i in 0 31 32 39; do
        n=$(grep -o "xmlns:q$i=\"urn:q$i\"" copy.pnml | wc -l)
        [ "$n" -eq 1 ] || { echo "q$i declared $n times"; return 1; }
    done
}
