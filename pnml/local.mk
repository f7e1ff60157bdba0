# pnml/: net formats (PNML, the canonical dump); the only code that calls
# libxml2.  Sees lib/.  The PNML reader is reader.c (the entry points, the
# document's structure, the net finished), sax.c (libxml2's events and
# errors, the per-object trees), objects.c (each object read from its
# tree), toolspecific.c (tool-specific blocks kept as text), sharing
# reader_private.h, sniff.c (a file that is not XML named as what it
# is), pnpro.c (GreatSPN's PNPRO projects) and pm4py.c (pm4py's
# stochastic block); the writer is writer.c.
noinst_LTLIBRARIES += pnml/libpn-pnml.la
pnml_libpn_pnml_la_SOURCES = \
	%reldir%/reader.c %reldir%/sax.c %reldir%/objects.c \
	%reldir%/toolspecific.c %reldir%/reader_private.h \
	%reldir%/sniff.c %reldir%/pnpro.c %reldir%/pm4py.c \
	%reldir%/pipe_rate.c %reldir%/pnpro_write.c \
	%reldir%/writer.c %reldir%/dump.c \
	%reldir%/mcc.c %reldir%/mcc.h %reldir%/pnml.h %reldir%/dump.h \
	%reldir%/pnml_private.h
pnml_libpn_pnml_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/pnml \
	-I$(srcdir)/lib
pnml_libpn_pnml_la_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
pninclude_HEADERS += %reldir%/pnml.h %reldir%/dump.h %reldir%/mcc.h
