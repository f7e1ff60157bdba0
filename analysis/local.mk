# analysis/: questions about every reachable marking.  The state-space
# explorer in parts (store.c: packed markings and their hash index;
# successors.c: the successors under both semantics; search.c: the
# breadth-first search, its limits and witnesses; invariants.c: P-semiflows
# and the store's compression; properties.c: queries, the global
# properties, Tarjan's components; ctl.c: CTL by fixed points over the
# graph; ctllocal.c: CTL on the fly, by local fixed points; buchi.c, ltl.c,
# ltlorder.c: LTL by a Büchi automaton times the graph, the order its
# search follows (ltl_private.h: what the two share);
# graph.c: the graph of markings written as DOT or JSON;
# coverability.c: Karp and Miller's graph; lp.c: the state equation by
# integer linear programming, GLPK; traps.c: its trap cuts and deadlock
# freedom from siphons and traps; walk.c: random walks; simplify.c:
# formulas rewritten smaller by the state equation; solve.c: those
# and the search on one clock, each answer as it comes; reduce.c:
# structural reductions that keep a query's answer; implicit.c: implicit
# places for them, by linear programming; stubborn.c: the
# stubborn sets of the queries, partial-order reduction; symmetry.c:
# markings up to the automorphisms that permute identical parts), the private
# interfaces between them (analysis_private.h, graph_private.h) and the
# public headers (reach.h, graph.h; struct.h: semiflows, classes, siphons
# and traps, in structure.c and siphons.c; workflow nets and their
# soundness, in workflow.c; bounds and structural properties by linear
# programming, in lpbounds.c).  Sees engine/ (the compiled net and the
# firing primitives of engine_private.h) and lib/.
noinst_LTLIBRARIES += analysis/libpn-analysis.la
analysis_libpn_analysis_la_SOURCES = \
	%reldir%/reach.h %reldir%/analysis_private.h \
	%reldir%/store.c %reldir%/successors.c %reldir%/search.c \
	%reldir%/invariants.c %reldir%/properties.c %reldir%/ctl.c \
	%reldir%/ctllocal.c \
	%reldir%/buchi.c %reldir%/ltl_private.h %reldir%/ltl.c \
	%reldir%/ltlorder.c \
	%reldir%/struct.h %reldir%/structure.c %reldir%/siphons.c \
	%reldir%/workflow.c %reldir%/lpbounds.c \
	%reldir%/graph.h %reldir%/graph_private.h %reldir%/graph.c \
	%reldir%/coverability.c %reldir%/lp.c %reldir%/traps.c \
	%reldir%/walk.c %reldir%/solve.c \
	%reldir%/reduce.c %reldir%/implicit.c %reldir%/stubborn.c \
	%reldir%/symmetry.c %reldir%/simplify.c
analysis_libpn_analysis_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) \
	-I$(srcdir)/analysis -I$(srcdir)/engine -I$(srcdir)/lib
pninclude_HEADERS += %reldir%/reach.h %reldir%/struct.h %reldir%/graph.h
