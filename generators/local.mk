# generators/: one file per net family, built through the net API; each
# exports its groups and classes as data.  Sees maxplus/ (the event graph
# of a kernel graph) and lib/.
noinst_LTLIBRARIES += generators/libpn-generators.la
generators_libpn_generators_la_SOURCES = \
	%reldir%/gpu.c %reldir%/gpu_options.c %reldir%/gpu.h \
	%reldir%/eventgraph.c %reldir%/eventgraph.h
generators_libpn_generators_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) \
	-I$(srcdir)/generators -I$(srcdir)/maxplus -I$(srcdir)/lib
pninclude_HEADERS += %reldir%/gpu.h %reldir%/eventgraph.h
