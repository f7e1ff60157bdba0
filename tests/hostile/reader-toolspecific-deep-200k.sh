# a place's tool-specific block nesting 200,000 elements: kept and written
# back without recursion (serializing it overflowed the stack at 50,000),
# and the copy reads again with the block whole
want_exit=0
run() {
    awk 'BEGIN {
        n = 200000
        printf "<pnml><net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\"><place id=\"p\"><toolspecific tool=\"a\" version=\"1\">"
        for (i = 0; i < n; i++) printf "<x>"
        printf "deep"
        for (i = 0; i < n; i++) printf "</x>"
        print "</toolspecific></place></page></net></pnml>" }' > deep.pnml
    "$BIN/pn-convert" -o copy.pnml deep.pnml || return $?
    "$BIN/pn-info" copy.pnml
}
check() {
    grep -q 'places: *1' out || { echo "copy not read back"; return 1; }
    n=$(grep -o '<x>' copy.pnml | wc -l)
    [ "$n" -eq 200000 ] || { echo "copy has $n <x>, wanted 200000"; return 1; }
    grep -q '<x>deep</x>' copy.pnml || { echo "the innermost text lost"; return 1; }
}
