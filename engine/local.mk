# engine/: compile and run nets.  Sees lib/.
#   engine.c, engine.h     runs: step semantics, the order of a step, the
#                          random stream
#   compile.c              the net compiler (pn_engine_compile())
#   compiled.h             the compiled net's layout, for those two only
#   engine_private.h       the firing rule and the compiled net, for the
#                          folders above and the tests
#   results.c, results.h   the result schema and summary statistics
#   trace.c, trace.h       the trace format
noinst_LTLIBRARIES += engine/libpn-engine.la
engine_libpn_engine_la_SOURCES = \
	%reldir%/engine.c %reldir%/engine.h %reldir%/engine_private.h \
	%reldir%/compiled.h \
	%reldir%/compile.c %reldir%/trace.c %reldir%/trace.h \
	%reldir%/results.c %reldir%/results.h
engine_libpn_engine_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/engine \
	-I$(srcdir)/lib
pninclude_HEADERS += %reldir%/engine.h %reldir%/trace.h \
	%reldir%/results.h
