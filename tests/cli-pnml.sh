#!/bin/sh
# pn-info and pn-convert from the command line: options, exit codes,
# messages, standard input, dialects, atomic output, grammar validation.
. "${srcdir:-tests}/lib.sh"
FIX="$srcdir/pnml"
CORPUS="${PN_CORPUS:-}"
GRAMMAR="$CORPUS/grammar/ptnet.pntd"

for prog in pn-info pn-convert; do
    expect 0 "$BIN/$prog" --help
    has "$TMP/out" "Usage: $prog"
    has "$TMP/out" "Exit status"
    expect 0 "$BIN/$prog" --version
    has "$TMP/out" "$prog (pn-toolkit)"
    expect 2 "$BIN/$prog" --no-such-option
    expect 2 "$BIN/$prog"
    expect 1 "$BIN/$prog" "$TMP/missing.pnml"
    has "$TMP/err" "$TMP/missing.pnml: cannot read: No such file or directory [PN_EIO]"
    # every option in --help is in the man page
    man_documents_options "$prog"
done

# text and json summaries
expect 0 "$BIN/pn-info" "$FIX/valid/sample/net.pnml"
has "$TMP/out" "places:      2"
has "$TMP/out" "arcs:        2 (normal 2, inhibitor 0, read 0, reset 0)"
has "$TMP/out" "tokens:      3"
has "$TMP/out" "name:        Sample net"
expect 0 "$BIN/pn-info" --format json "$FIX/valid/tapaal-inhibitor/net.pnml"
has "$TMP/out" '"places": 2, "transitions": 1, "arcs": 2'
has "$TMP/out" '"inhibitor": 1'
expect 2 "$BIN/pn-info" --format yaml "$FIX/valid/sample/net.pnml"

# SNAKES's own files: its black tokens counted, its inhibitor, test and
# flush arcs read; a value other than a black token refused where it is
expect 0 "$BIN/pn-info" "$FIX/valid/snakes-blacktokens/net.pnml"
has "$TMP/out" "arcs:        11 (normal 7, inhibitor 2, read 1, reset 1)"
has "$TMP/out" "tokens:      6"
expect 1 "$BIN/pn-info" "$FIX/invalid/snakes-int-arc/net.pnml"
has "$TMP/err" "$FIX/invalid/snakes-int-arc/net.pnml:13:7: unsupported net type: an arc of <object type=\"int\">1</object>"

# standard input
expect 0 sh -c "'$BIN/pn-info' - < '$FIX/valid/sample/net.pnml'"
has "$TMP/out" "file:        <stdin>"
expect 1 sh -c "'$BIN/pn-info' - < '$FIX/invalid/duplicate-id/net.pnml'"
has "$TMP/err" "pn-info: <stdin>:3:13: duplicate id 'p' [PN_EDUPID]"

# errors name file, line and column
expect 1 "$BIN/pn-info" "$FIX/invalid/weight-zero/net.pnml"
has "$TMP/err" "$FIX/invalid/weight-zero/net.pnml:3:54: arc weight '0'"
expect 1 "$BIN/pn-info" "$FIX/invalid/symmetric-net/net.pnml"
has "$TMP/err" "unsupported net type"

# a file cut short is said as such, with the element left open (libxml2
# says "Extra content at the end of the document", or "Couldn't find end
# of Start Tag" when the cut is in a tag)
printf '<pnml><net id="n" type="x"><page id="g"><place id="p"/>' > "$TMP/cut.pnml"
expect 1 "$BIN/pn-info" "$TMP/cut.pnml"
has "$TMP/err" "$TMP/cut.pnml:1:56: malformed XML: unexpected end of file: <page> opened at line 1 is not closed [PN_EXML]"
printf '<pnml><net id="n" type="x"><page id="g">\n<place id="p"/>\n<transition id="t"' > "$TMP/cut.pnml"
expect 1 "$BIN/pn-info" "$TMP/cut.pnml"
has "$TMP/err" "cut.pnml:3:19: malformed XML: unexpected end of file: <page> opened at line 1 is not closed [PN_EXML]"
printf '<pnml><net id="n" type="x"><page id="g">\n<place id="p"/>\n<transition id="t"/>\n<in' > "$TMP/cut.pnml"
expect 1 "$BIN/pn-info" "$TMP/cut.pnml"
has "$TMP/err" "malformed XML: unexpected end of file in the start tag of <in>; <page> opened at line 1 is not closed [PN_EXML]"
printf '<pnml><net id="n" type="x"><page id="g"><place id="p"/></page></net></pnml> junk' > "$TMP/cut.pnml"
expect 1 "$BIN/pn-info" "$TMP/cut.pnml"
has "$TMP/err" "Extra content at the end of the document"
# bytes that are not UTF-8: one line in plain words (libxml2 said "Input
# is not proper UTF-8, indicate encoding !" and the bytes on a second line)
printf '<pnml><net id="n" type="P/T net"><page id="g"><place id="p"><name><text>a\377\376b</text></name></place></page></net></pnml>' > "$TMP/utf8.pnml"
expect 1 "$BIN/pn-info" "$TMP/utf8.pnml"
has "$TMP/err" "utf8.pnml:1:74: malformed XML: the text is not valid UTF-8 (0xFF 0xFE 0x62 0x3C) and the file declares no other encoding [PN_EXML]"
[ "$(wc -l < "$TMP/err")" -eq 1 ] && ok || bad "the UTF-8 error is on more than one line"
# a file that is not XML at all is named as what it is (libxml2 says
# "Document is empty"), from a file and from standard input; a pipe that
# gives the start a byte at a time is judged as the whole file is
notxml() {   # notxml NAME MESSAGE: $TMP/NAME refused, saying MESSAGE
    expect 1 "$BIN/pn-info" "$TMP/$1"
    has "$TMP/err" "pn-info: $TMP/$1:1:1: not XML: $2"
    has "$TMP/err" "[PN_EXML]"
    expect 1 sh -c "'$BIN/pn-info' - < '$TMP/$1'"
    has "$TMP/err" "pn-info: <stdin>:1:1: not XML: $2"
    expect 1 sh -c "cat '$TMP/$1' | '$BIN/pn-convert' -o '$TMP/never.pnml' -"
    has "$TMP/err" "pn-convert: <stdin>:1:1: not XML: $2"
}
printf '\037\213\010\000\000\000\000\000' > "$TMP/net.pnml.gz"
notxml net.pnml.gz "this is a gzip file; PNML is XML"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' > "$TMP/net.png"
notxml net.png "this is a PNG image; PNML is XML"
printf '%%PDF-1.4\n%%\342\343\317\323\n' > "$TMP/net.pdf"
notxml net.pdf "this is a PDF document; PNML is XML"
printf 'PK\003\004\024\000\000\000' > "$TMP/net.zip"
notxml net.zip "this is a zip archive"
printf 'digraph kernel {\n  a -> b [time="t"];\n}\n' > "$TMP/net.dot"
notxml net.dot "this looks like a DOT graph (pn-maxplus reads those); PNML is XML"
printf '\n  strict Graph "g"\n{ a -- b }\n' > "$TMP/net.gv"
notxml net.gv "this looks like a DOT graph"
printf '{"places": 2, "transitions": 1}\n' > "$TMP/net.json"
notxml net.json "this looks like JSON; PNML is XML"
printf '  [1, 2]' > "$TMP/list.json"
notxml list.json "this looks like JSON"
printf 'place,tokens\np,1\n' > "$TMP/net.csv"
notxml net.csv "this looks like CSV text; PNML is XML"
printf 'a net, in words <not markup>\n' > "$TMP/net.txt"
notxml net.txt "the text does not start with '<'; PNML is XML"
: > "$TMP/empty.pnml"
notxml empty.pnml "the file is empty"
[ -e "$TMP/never.pnml" ] && bad "pn-convert wrote an output for a non-XML input" || ok
expect 1 sh -c "{ printf '\037'; sleep 0.2; printf '\213'; sleep 0.2; printf '\010\000'; } | '$BIN/pn-info' -"
has "$TMP/err" "<stdin>:1:1: not XML: this is a gzip file"
expect 1 sh -c "{ printf 'digr'; sleep 0.2; printf 'aph g\n'; sleep 0.2; printf '{ a -> b }\n'; } | '$BIN/pn-info' -"
has "$TMP/err" "<stdin>:1:1: not XML: this looks like a DOT graph"
# what may be XML still goes to the parser: a byte-order mark, blanks,
# then '<'; a DOT-like word inside XML is not a graph
printf '\357\273\277\n  <pnml><net id="n" type="x"><page id="g"><place id="p"/></page></net></pnml>\n' > "$TMP/bom.pnml"
expect 0 "$BIN/pn-info" "$TMP/bom.pnml"
expect 0 sh -c "{ printf '\357\273'; sleep 0.2; printf '\277 <pnml><net id=\"n\" type=\"x\"><page id=\"g\"><place id=\"p\"/></page></net></pnml>'; } | '$BIN/pn-info' -"
printf '<graph>,{</graph>' > "$TMP/graph.pnml"
expect 1 "$BIN/pn-info" "$TMP/graph.pnml"
lacks "$TMP/err" "not XML"
# warnings: unused places, transitions without input
cat > "$TMP/warn.pnml" <<'XML'
<pnml><net id="n"><place id="lonely"/><place id="q"/><transition id="source"/>
<transition id="guarded"/><arc id="a" source="source" target="q"/>
<arc id="b" source="q" target="guarded" type="inhibitor"/></net></pnml>
XML
expect 0 "$BIN/pn-info" "$TMP/warn.pnml"
has "$TMP/out" "place 'lonely' is on no arc"
has "$TMP/out" "transition 'source' has no input place: it never stops being enabled"
has "$TMP/out" "transition 'guarded' consumes no tokens"
lacks "$TMP/out" "place 'q'"
# what the net cannot hold is reported with a count, not dropped silently:
# arc bend points (standard <position>s, PIPE's <arcpath> points between
# the ends), tool-specific blocks inside labels, guards (pm4py), a game's
# second player (TAPAAL), elements of the net it does not read (pm4py's
# <finalmarkings>); an immediate transition's firing weight (PIPE) is
# kept
cat > "$TMP/lost.pnml" <<'XML'
<pnml><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet">
<finalmarkings><marking/></finalmarkings>
<place id="p"><name><text>p</text><toolspecific tool="x" version="1"/></name></place>
<transition id="t" guard="(a&gt;1)"><rate><value>3</value></rate><timed><value>false</value></timed></transition>
<transition id="u" player="1" guard="true"><rate><value>1.0</value></rate></transition>
<arc id="a" source="p" target="t"><graphics><position x="1" y="2"/><position x="3" y="4"/></graphics></arc>
<arc id="b" source="p" target="u"><arcpath id="0" x="0" y="0"/><arcpath id="1" x="5" y="5"/><arcpath id="2" x="9" y="9"/></arc>
</net></pnml>
XML
expect 0 "$BIN/pn-info" "$TMP/lost.pnml"
has "$TMP/out" "ignored: 3 arc bend points, 1 tool-specific block inside a label, 1 transition guard, 1 transition of a game's second player, 1 label we do not understand (<finalmarkings>)"
expect 0 "$BIN/pn-info" --dump "$TMP/lost.pnml"
has "$TMP/out" 'id="t" label="t" timing=immediate rate=3 priority=1 server=single'
has "$TMP/out" 'id="u" label="u" timing=immediate rate=1 priority=1 server=single'
# a net type we do not know is read as P/T, and said; PIPE's and pm4py's
# types are known
printf '<pnml><net id="n" type="bogus"><page id="g"><place id="p"/></page></net></pnml>' > "$TMP/bogus.pnml"
expect 0 "$BIN/pn-info" "$TMP/bogus.pnml"
has "$TMP/out" "warning: $TMP/bogus.pnml:1: unknown net type 'bogus': read as a P/T net"
expect 0 "$BIN/pn-info" "$FIX/valid/pipe-dialect/net.pnml"
lacks "$TMP/out" "unknown net type"
expect 0 "$BIN/pn-info" "$FIX/valid/pm4py-arctypes/net.pnml"
lacks "$TMP/out" "unknown net type"
# a page without an id is accepted with a warning, as a net without one
printf '<pnml><net type="P/T net">\n<page><place id="p"/></page></net></pnml>' > "$TMP/noid.pnml"
expect 0 "$BIN/pn-info" "$TMP/noid.pnml"
has "$TMP/out" "warning: $TMP/noid.pnml:1: <net> has no id"
has "$TMP/out" "warning: $TMP/noid.pnml:2: <page> has no id"
expect 0 "$BIN/pn-info" --net second "$FIX/valid/second-net/net.pnml"
has "$TMP/out" "tokens:      4"
expect 1 "$BIN/pn-info" --net third "$FIX/valid/second-net/net.pnml"
has "$TMP/err" "no <net> with id 'third'"

# pn-convert: dialects, atomic output, refusal leaves no file
expect 0 "$BIN/pn-convert" -o "$TMP/s.pnml" "$FIX/valid/pipe-dialect/net.pnml"
has "$TMP/s.pnml" '<type value="inhibitor"/>'
has "$TMP/s.pnml" 'type="inhibitor"'
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/p.pnml" "$TMP/s.pnml"
lacks "$TMP/err" "note:"
# PIPE's <net> has no name: its loss is said
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/named.xml" "$FIX/valid/sample/net.pnml"
has "$TMP/err" "pn-convert: note: the net's name 'Sample net' left out (PIPE's dialect has no place for it)"
has "$TMP/p.pnml" "<value>Default,3</value>"
lacks "$TMP/p.pnml" "xmlns"
lacks "$TMP/p.pnml" "<page"
expect 3 "$BIN/pn-convert" --dialect strict -o "$TMP/strict.pnml" "$TMP/s.pnml"
has "$TMP/err" "strict dialect cannot express inhibitor arcs"
if [ -e "$TMP/strict.pnml" ]; then bad "refused output left a file"; else ok; fi
ls "$TMP" | grep -q tmp && bad "temporary file left" || ok
# every program that reads a net says the reader's warnings on standard
# error, as pn-info lists them (pn-convert, pn-reach, pn-dot said none)
for prog in pn-convert pn-reach pn-dot; do
    case $prog in
    pn-convert) args="-o $TMP/timed.pnml" ;;
    pn-dot) args="-f dot -o $TMP/timed.dot" ;;
    *) args= ;;
    esac
    expect 0 "$BIN/$prog" $args "$FIX/valid/tapaal-timed/net.pnml"
    has "$TMP/err" "$prog: warning: $FIX/valid/tapaal-timed/net.pnml: ignored:"
    expect 0 "$BIN/$prog" $args "$FIX/valid/second-net/net.pnml"
    has "$TMP/err" "$prog: warning: $FIX/valid/second-net/net.pnml: the document holds 2 nets"
done
# tool-specific blocks left out are said: strict drops those with
# attributes the grammar refuses (ProM's localNodeID), pipe all
cat > "$TMP/prom.pnml" <<'XML'
<pnml><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<place id="p"><toolspecific tool="ProM" version="6.4" localNodeID="x1"/></place>
<transition id="t"><toolspecific tool="a" version="1"/></transition>
<arc id="a" source="p" target="t"/></page></net></pnml>
XML
expect 0 "$BIN/pn-convert" --dialect strict -o "$TMP/prom-strict.pnml" "$TMP/prom.pnml"
has "$TMP/err" "pn-convert: note: 1 tool-specific block left out (the grammar allows no attributes on <toolspecific> but tool and version)"
lacks "$TMP/prom-strict.pnml" "localNodeID"
expect 0 "$BIN/pn-convert" --dialect pipe -o "$TMP/prom-pipe.pnml" "$TMP/prom.pnml"
has "$TMP/err" "pn-convert: note: 2 tool-specific blocks left out (PIPE's dialect has none)"
expect 0 "$BIN/pn-convert" -o "$TMP/prom-std.pnml" "$TMP/prom.pnml"
lacks "$TMP/err" "note:"
expect 2 "$BIN/pn-convert" --dialect fancy "$TMP/s.pnml"
has "$TMP/err" "pipe, tapaal, woped or pnpro"
# WoPeD's dialect: its net type, no page, the name's offset absolute (the
# place at 561,118 has its label 9 right of and 18 above it), an
# inscription on every arc; the file reads back with the same offsets
expect 0 "$BIN/pn-convert" --dialect woped -o "$TMP/w.pnml" "$FIX/valid/woped-absolute-offsets/net.pnml"
has "$TMP/w.pnml" 'type="http://www.informatik.hu-berlin.de/top/pntd/ptNetb"'
has "$TMP/w.pnml" '<offset x="570" y="100"/>'
has "$TMP/w.pnml" '<text>1</text>'
lacks "$TMP/w.pnml" "<page"
lacks "$TMP/w.pnml" "xmlns"
expect 0 "$BIN/pn-info" --dump "$TMP/w.pnml"
has "$TMP/out" 'label_at=9,-18'
expect 3 "$BIN/pn-convert" --dialect woped -o "$TMP/w2.pnml" "$TMP/s.pnml"
has "$TMP/err" "WoPeD has no inhibitor arcs"
# TAPAAL's: the names as ids (TAPAAL shows ids), the net's name an
# identifier, nodes on the 15-pixel grid with their labels in the drawing
"$BIN/pn-gen-gpu" --warps 1 > "$TMP/g.pnml"
expect 0 "$BIN/pn-convert" --dialect tapaal -o "$TMP/t.pnml" "$TMP/g.pnml"
has "$TMP/t.pnml" '<text>GPU_warp_net_1_warps_2_schedulers</text>'
has "$TMP/t.pnml" '<place id="SM_free_warp_schedulers">'
has "$TMP/t.pnml" 'type="inhibitor"'
expect 0 "$BIN/pn-convert" --dialect tapaal -o "$TMP/t2.pnml" "$TMP/t.pnml"
expect 0 cmp "$TMP/t.pnml" "$TMP/t2.pnml"
expect 0 sh -c "'$BIN/pn-convert' - < '$FIX/valid/sample/net.pnml' > '$TMP/stdout.pnml'"
expect 0 "$BIN/pn-info" "$TMP/stdout.pnml"
has "$TMP/out" "places:      2"

# written files validate against the official grammar (jing -i); files
# with inhibitor arcs do once the two documented extensions are removed
if [ -n "${JING:-}" ] && [ -n "$CORPUS" ] && [ -f "$GRAMMAR" ]; then
    # every file converted first, then one run of jing over all of them
    # (a Java start per file was most of this script's time); jing names
    # each file it rejects at the start of its error lines
    mkdir -p "$TMP/val"
    : > "$TMP/val/list"
    k=0
    for f in "$FIX"/valid/*/net.pnml "$CORPUS"/*/*.pnml "$CORPUS"/*/*.xml "$CORPUS"/*/*.tapn; do
        [ -f "$f" ] || continue
        case "$f" in *net-id*) continue ;; esac
        k=$((k + 1))
        v="$TMP/val/$k.pnml"
        "$BIN/pn-convert" -o "$v" "$f" 2>/dev/null || continue
        if grep -q 'type="\(inhibitor\|read\|reset\)"' "$v"; then
            # read and reset arcs have no grammar form at all; inhibitors:
            # remove the attribute, the child and pm4py's label, the net
            # must be valid
            grep -q 'type="\(read\|reset\)"' "$v" && continue
            sed -e 's/ type="inhibitor"//' -e '/<type value="inhibitor"\/>/d' \
                -e '/<arctype>/,/<\/arctype>/d' \
                "$v" > "$TMP/v2.pnml"
            mv "$TMP/v2.pnml" "$v"
            "$BIN/pn-convert" --dialect strict -o "$TMP/x.pnml" "$f" 2>/dev/null && bad "strict accepted inhibitors: $f"
        else
            "$BIN/pn-convert" --dialect strict -o "$v" "$f" || bad "strict refused $f"
        fi
        printf '%s\t%s\n' "$v" "$f" >> "$TMP/val/list"
    done
    # shellcheck disable=SC2046
    "$JING" -i "$GRAMMAR" $(cut -f1 "$TMP/val/list") > "$TMP/jing" 2>/dev/null
    nval=0
    while IFS="$(printf '\t')" read -r v f; do
        if grep -q "^$v:" "$TMP/jing"; then
            bad "grammar rejects the output for $f"; grep "^$v:" "$TMP/jing" | head -3 >&2
        else
            ok; nval=$((nval + 1))
        fi
    done < "$TMP/val/list"
    # the run itself must have looked at the files: one it rejects on
    # purpose is named
    printf '<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml"><nt/></pnml>\n' > "$TMP/val/invalid.pnml"
    first=$(head -1 "$TMP/val/list" | cut -f1)
    "$JING" -i "$GRAMMAR" "$first" "$TMP/val/invalid.pnml" > "$TMP/jing" 2>/dev/null
    grep -q "^$TMP/val/invalid.pnml:" "$TMP/jing" && ok || bad "jing did not name the invalid file"
    grep -q "^$first:" "$TMP/jing" && bad "jing named a valid file" || ok
    echo "validated $nval written files with jing"
    [ "$nval" -ge 60 ] && ok || bad "only $nval files validated"
else
    echo "jing or the corpus is missing: grammar validation skipped"
fi
# a prefix declared above a tool-specific block and again inside it (in
# a sibling, or below its use): the block written back declares the outer
# one where it is used, for a net's block (streamed) and a node's (tree)
cat > "$TMP/ns.pnml" <<'XML'
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml" xmlns:a="urn:outer"><net id="n" type="http://www.pnml.org/version-2009/grammar/ptnet"><page id="g">
<toolspecific tool="t" version="1"><a:x><a:y xmlns:a="urn:inner"/></a:x><a:z/></toolspecific>
<place id="p"><toolspecific tool="t" version="1"><a:x xmlns:a="urn:inner"/><a:y/></toolspecific></place>
</page></net></pnml>
XML
expect 0 "$BIN/pn-convert" -o "$TMP/ns-out.pnml" "$TMP/ns.pnml"
expect 0 "$BIN/pn-info" "$TMP/ns-out.pnml"
has "$TMP/ns-out.pnml" '<toolspecific xmlns:a="urn:outer" tool="t" version="1"><a:x><a:y xmlns:a="urn:inner"/></a:x><a:z/></toolspecific>'
has "$TMP/ns-out.pnml" '<toolspecific xmlns:a="urn:outer" tool="t" version="1"><a:x xmlns:a="urn:inner"/><a:y/></toolspecific>'
# a file cut anywhere: refused (status 1), said as cut short where the cut
# is in markup; never a crash
f="$srcdir/pnml/valid/sample/net.pnml"
n=$(wc -c < "$f")
cuts=0 said=0 i=1
while [ "$i" -lt "$((n - 2))" ]; do
    head -c "$i" "$f" > "$TMP/cut.pnml"
    "$BIN/pn-info" "$TMP/cut.pnml" > /dev/null 2> "$TMP/err"
    rc=$?
    [ "$rc" -eq 1 ] || bad "a cut at byte $i: status $rc"
    cuts=$((cuts + 1))
    grep -q "unexpected end of file" "$TMP/err" && said=$((said + 1))
    i=$((i + 3))
done
[ "$said" -ge $((cuts * 9 / 10)) ] && ok || bad "only $said of $cuts cuts said as a file cut short"
# an unknown option is said under the program's own name (under libtool
# argv[0] is bin/.libs/PROG)
for p in pn-info pn-convert pn-run pn-gen-gpu pn-dot pn-maxplus pn-reach pn-gpu pn-sweep; do
    expect 2 "$BIN/$p" --no-such-option
    grep -q "^$p: unrecognized option" "$TMP/err" && ok || bad "$p: $(head -1 "$TMP/err")"
done
finish
