# engine/: compile and run nets (step semantics, random stream,
# statistics) and the trace format.  Sees lib/.
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
