# pnml/: net formats (PNML, the canonical dump); the only code that calls
# libxml2.  Sees lib/.
noinst_LTLIBRARIES += pnml/libpn-pnml.la
pnml_libpn_pnml_la_SOURCES = \
	%reldir%/reader.c %reldir%/writer.c %reldir%/dump.c \
	%reldir%/mcc.c %reldir%/mcc.h %reldir%/pnml.h %reldir%/dump.h \
	%reldir%/pnml_private.h
pnml_libpn_pnml_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/pnml \
	-I$(srcdir)/lib
pnml_libpn_pnml_la_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
pninclude_HEADERS += %reldir%/pnml.h %reldir%/dump.h %reldir%/mcc.h
