#!/bin/sh
# A large P/T net for the reader's benchmark: N places and N transitions
# in a ring (p_i -> t_i -> p_i+1), written as tools write them (nodes, then
# arcs), with names and initial markings.   sh bench/gen-big.sh N > big.pnml
n=${1:-1000000}
awk -v n="$n" 'BEGIN {
    print "<?xml version=\"1.0\"?>"
    print "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"
    print "<net id=\"ring\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
    for (i = 0; i < n; i++)
        printf "<place id=\"p%d\"><name><text>p%d</text></name><initialMarking><text>%d</text></initialMarking></place>\n", i, i, i % 2
    for (i = 0; i < n; i++)
        printf "<transition id=\"t%d\"><name><text>t%d</text></name></transition>\n", i, i
    for (i = 0; i < n; i++)
        printf "<arc id=\"a%d\" source=\"p%d\" target=\"t%d\"/>\n<arc id=\"b%d\" source=\"t%d\" target=\"p%d\"/>\n", i, i, i, i, i, (i + 1) % n
    print "</page></net></pnml>"
}'
