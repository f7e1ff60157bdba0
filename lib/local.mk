lib_LTLIBRARIES += lib/libpn.la
lib_libpn_la_SOURCES = \
	%reldir%/net.c %reldir%/net.h %reldir%/net_private.h \
	%reldir%/util.c %reldir%/status.c %reldir%/status.h \
	%reldir%/dump.c %reldir%/pn.h %reldir%/trace.c %reldir%/trace.h \
	%reldir%/dot.c %reldir%/dot.h
lib_libpn_la_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS) $(GVC_CFLAGS)
lib_libpn_la_LIBADD = $(XML_LIBS) $(GVC_LIBS) -lm
# only the public pn_ names leave the library (tests/check-exports.sh)
lib_libpn_la_LDFLAGS = -version-info $(LIBPN_LT_VERSION) \
	-export-symbols-regex '^pn_' -no-undefined
pninclude_HEADERS += %reldir%/pn.h %reldir%/net.h %reldir%/status.h \
	%reldir%/trace.h %reldir%/dot.h
