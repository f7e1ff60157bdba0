# render/: Graphviz pictures of nets and traces; knows no net family.
# Sees engine/ (traces) and lib/.  Its own installed library,
# libpn-render (libpn-render.pc), on libpn: only what draws links libgvc.
#   dot.c       the context, nets (nodes, arcs, clusters, shared nodes,
#               the legend), pn_dot_render(), the helpers the files share
#   fold.c      folded groups: the boxes and the arcs bundled into them
#   timeline.c  traces as space-time diagrams (pn_dot_timeline())
#   html.c      the HTML page that replays a run (pn_dot_html())
#   ids.c       object ids in the order made, for graphs dot packs
#   route.c     nets at their positions: copies of shared nodes, arcs bent
#               around nodes
#   measures.c  a stochastic net's timing and a solution's measures
#               beside its nodes
#   render_private.h  what dot.c, fold.c and timeline.c share
noinst_LTLIBRARIES += render/libpn-dot.la
render_libpn_dot_la_SOURCES = %reldir%/dot.c %reldir%/dot.h \
	%reldir%/fold.c %reldir%/timeline.c %reldir%/html.c %reldir%/ids.c \
	%reldir%/route.c %reldir%/measures.c %reldir%/render_private.h
# $(top_builddir)/render: viewer.h, which the build makes
render_libpn_dot_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/render \
	-I$(top_builddir)/render -I$(srcdir)/engine -I$(srcdir)/lib
render_libpn_dot_la_CFLAGS = $(AM_CFLAGS) $(GVC_CFLAGS)
pninclude_HEADERS += %reldir%/dot.h
lib_LTLIBRARIES += libpn-render.la
# lib/error.c, lib/strbuf.c, lib/json.c: the error-record helpers, the
# growing string and the JSON escaper, private to each library
libpn_render_la_SOURCES = lib/error.c lib/strbuf.c lib/json.c
libpn_render_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/lib
libpn_render_la_LIBADD = render/libpn-dot.la libpn.la $(GVC_LIBS) -lm
# only pn_dot_ names leave it (tests/check-exports.sh,
# tests/libpn-render.exports)
libpn_render_la_LDFLAGS = -version-info $(LIBPN_LT_VERSION) \
	-export-symbols-regex '^pn_dot_' -no-undefined
# the page of pn_dot_html(): its style and script, made C strings in the
# header viewer.h (in the build folder, never distributed) by embed.sh
nodist_render_libpn_dot_la_SOURCES = %reldir%/viewer.h
BUILT_SOURCES += %reldir%/viewer.h
CLEANFILES += %reldir%/viewer.h
%reldir%/viewer.h: $(srcdir)/%reldir%/viewer.css $(srcdir)/%reldir%/viewer.js \
		$(srcdir)/%reldir%/embed.sh
	$(AM_V_GEN)$(MKDIR_P) %reldir% && \
	$(SHELL) $(srcdir)/%reldir%/embed.sh $(srcdir)/%reldir% > $@.tmp && \
	mv $@.tmp $@
EXTRA_DIST += %reldir%/viewer.js %reldir%/viewer.css %reldir%/embed.sh
