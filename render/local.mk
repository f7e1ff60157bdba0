# render/: Graphviz pictures of nets and traces; knows no net family.
# Sees engine/ (traces) and lib/.
noinst_LTLIBRARIES += render/libpn-render.la
render_libpn_render_la_SOURCES = %reldir%/dot.c %reldir%/dot.h
render_libpn_render_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/render \
	-I$(srcdir)/engine -I$(srcdir)/lib
render_libpn_render_la_CFLAGS = $(AM_CFLAGS) $(GVC_CFLAGS)
pninclude_HEADERS += %reldir%/dot.h
