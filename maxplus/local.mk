# maxplus/: the max-plus kernel-time model.  Sees lib/.  Only the kernel
# graph reader (kernel_dot.c) calls Graphviz, cgraph alone (no layout, no
# rendering), so it builds apart with cgraph's flags.
noinst_LTLIBRARIES += maxplus/libpn-maxplus.la maxplus/libpn-kgraph.la
maxplus_libpn_maxplus_la_SOURCES = \
	%reldir%/matrix.c %reldir%/kernel.c %reldir%/expr.c \
	%reldir%/maxplus.h %reldir%/maxplus_private.h
maxplus_libpn_maxplus_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) \
	-I$(srcdir)/maxplus -I$(srcdir)/lib
maxplus_libpn_kgraph_la_SOURCES = %reldir%/kernel_dot.c
maxplus_libpn_kgraph_la_CPPFLAGS = $(maxplus_libpn_maxplus_la_CPPFLAGS)
maxplus_libpn_kgraph_la_CFLAGS = $(AM_CFLAGS) $(CGRAPH_CFLAGS)
pninclude_HEADERS += %reldir%/maxplus.h
