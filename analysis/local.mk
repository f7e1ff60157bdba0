# analysis/: questions about every reachable marking.  The state-space
# explorer in parts (store.c: packed markings and their hash index;
# successors.c: the successors under both semantics; search.c: the
# breadth-first search, its limits and witnesses; invariants.c: P-semiflows
# and the store's compression; properties.c: queries, the global
# properties, Tarjan's components), the private interface between them
# (analysis_private.h) and the public headers (reach.h; struct.h:
# semiflows, classes, siphons and traps, in structure.c and siphons.c;
# workflow nets and their soundness, in workflow.c).
# Sees engine/ (the compiled net and the firing primitives of
# engine_private.h) and lib/.
noinst_LTLIBRARIES += analysis/libpn-analysis.la
analysis_libpn_analysis_la_SOURCES = \
	%reldir%/reach.h %reldir%/analysis_private.h \
	%reldir%/store.c %reldir%/successors.c %reldir%/search.c \
	%reldir%/invariants.c %reldir%/properties.c \
	%reldir%/struct.h %reldir%/structure.c %reldir%/siphons.c \
	%reldir%/workflow.c
analysis_libpn_analysis_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) \
	-I$(srcdir)/analysis -I$(srcdir)/engine -I$(srcdir)/lib
pninclude_HEADERS += %reldir%/reach.h %reldir%/struct.h
