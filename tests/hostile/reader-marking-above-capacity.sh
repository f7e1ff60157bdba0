# an initial marking above the place's capacity is read, with a warning
want_exit=0
check() {
    grep -qF "warning: c.pnml: place 'p' has an initial marking of 5 above its capacity 3" out ||
        { echo "no warning:"; cat out; return 1; }
}
run() {
    printf '<pnml><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">\n<place id="p"><initialMarking><text>5</text></initialMarking><capacity><text>3</text></capacity></place>\n</page></net></pnml>\n' > c.pnml
    "$BIN/pn-info" c.pnml
}
