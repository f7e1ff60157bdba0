# lib/: the bottom layer (net model, status and errors, groups, private
# helpers).  No third-party library; sees only its own headers.
noinst_LTLIBRARIES += lib/libpn-lib.la
lib_libpn_lib_la_SOURCES = \
	%reldir%/net.c %reldir%/net.h %reldir%/lib_private.h \
	%reldir%/status.c %reldir%/status.h %reldir%/groups.c \
	%reldir%/groups.h %reldir%/util.c %reldir%/io.c %reldir%/output.c \
	%reldir%/error.c %reldir%/query.c %reldir%/query.h %reldir%/strbuf.c \
	%reldir%/json.c %reldir%/csv.c %reldir%/rate.c
lib_libpn_lib_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/lib
pninclude_HEADERS += %reldir%/net.h %reldir%/status.h %reldir%/groups.h \
	%reldir%/query.h
# made by configure from version.h.in (the version macros)
nodist_pninclude_HEADERS = %reldir%/version.h
EXTRA_DIST += %reldir%/version.h.in
