# --positions -T png with nodes at (0, 0) and (1e5, 1e5): the bitmap would
# be 133,000 pixels square (Graphviz allocates gigabytes, then crashes);
# refused from the laid-out size before rendering, exit 4, SVG and the
# resolution that fits (--dpi) suggested
want_exit=4
want_msg="svg"
run() {
    cat > apart.pnml <<'NET'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><graphics><position x="0" y="0"/></graphics></place>
<transition id="t"><graphics><position x="100000" y="100000"/></graphics></transition>
<arc id="a" source="p" target="t"/>
</page></net></pnml>
NET
    # a memory ceiling: without the check Graphviz asks for gigabytes
    # (not under AddressSanitizer, which reserves terabytes of address
    # space for itself)
    grep -q __asan_init "$BIN/pn-dot" 2>/dev/null || ulimit -v 2000000
    "$BIN/pn-dot" --positions apart.pnml -o apart.png
}
check() {
    [ ! -e apart.png ] || { echo "apart.png written"; return 1; }
    grep -q 'megapixels' err || { echo "no size in the message"; return 1; }
    grep -q 'at 7 dpi or less' err || { echo "no resolution that fits"; return 1; }
}
