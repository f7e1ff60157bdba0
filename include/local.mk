# include/: the umbrella header, and the one installed library made of
# every folder's convenience library.
pninclude_HEADERS += %reldir%/pn.h
lib_LTLIBRARIES += libpn.la
libpn_la_SOURCES =
libpn_la_LIBADD = $(PN_MODULES) $(XML_LIBS) $(GVC_LIBS) -lm
# only the public pn_ names leave the library (tests/check-exports.sh)
libpn_la_LDFLAGS = -version-info $(LIBPN_LT_VERSION) \
	-export-symbols-regex '^pn_' -no-undefined
