# engine/: compile and run nets.  Sees lib/.
#   engine.c, engine.h     runs: step semantics, the order of a step, the
#                          random stream
#   compile.c              the net compiler (pn_engine_compile())
#   engine_private.h       the firing rule and the compiled net, for the
#                          folders above and the tests
#   results.c, results.h   the result schema and summary statistics
#   trace.c, trace.h       the trace format
#   reach.c, reach.h, semiflow.c   the state-space explorer, P-semiflows
noinst_LTLIBRARIES += engine/libpn-engine.la
engine_libpn_engine_la_SOURCES = \
	%reldir%/engine.c %reldir%/engine.h %reldir%/engine_private.h \
	%reldir%/compile.c \
	%reldir%/trace.c %reldir%/trace.h %reldir%/reach.c %reldir%/reach.h %reldir%/semiflow.c \
	%reldir%/results.c %reldir%/results.h
engine_libpn_engine_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/engine \
	-I$(srcdir)/lib
pninclude_HEADERS += %reldir%/engine.h %reldir%/trace.h %reldir%/reach.h \
	%reldir%/results.h
