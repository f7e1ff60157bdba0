# include/: the umbrella header, and the installed library libpn made of
# every folder's convenience library but render/'s (render/local.mk makes
# libpn-render of that one).
pninclude_HEADERS += %reldir%/pn.h
libpn_la_SOURCES =
libpn_la_LIBADD = $(PN_LIBPN_MODULES) $(XML_LIBS) $(CGRAPH_LIBS) \
	$(UMFPACK_LIBS) -lm
# only the public pn_ names leave the library (tests/check-exports.sh)
libpn_la_LDFLAGS = -version-info $(LIBPN_LT_VERSION) \
	-export-symbols-regex '^pn_' -no-undefined
