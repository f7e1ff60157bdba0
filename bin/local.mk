bin_PROGRAMS += bin/pn-info bin/pn-convert
noinst_LTLIBRARIES += bin/libcli.la
# lib/output.c, lib/json.c, lib/strbuf.c: the atomic output files and the
# JSON escaper every writer shares (private to libpn, so compiled in here
# too)
bin_libcli_la_SOURCES = %reldir%/cli.c %reldir%/cli-run.c %reldir%/cli.h \
	lib/output.c lib/json.c lib/strbuf.c
bin_pn_info_SOURCES = %reldir%/pn-info.c
bin_pn_info_LDADD = bin/libcli.la libpn.la
bin_pn_convert_SOURCES = %reldir%/pn-convert.c
bin_pn_convert_LDADD = bin/libcli.la libpn.la
bin_PROGRAMS += bin/pn-run
bin_pn_run_SOURCES = %reldir%/pn-run.c %reldir%/run-stochastic.c \
	%reldir%/run-stochastic.h
bin_pn_run_CFLAGS = $(AM_CFLAGS) -pthread
bin_pn_run_LDADD = bin/libcli.la libpn.la -lpthread
bin_PROGRAMS += bin/pn-gen-gpu
bin_pn_gen_gpu_SOURCES = %reldir%/pn-gen-gpu.c
bin_pn_gen_gpu_LDADD = bin/libcli.la libpn.la
bin_PROGRAMS += bin/pn-dot
bin_pn_dot_SOURCES = %reldir%/pn-dot.c
# Jansson: the solution of --solution (pn-solve's JSON)
bin_pn_dot_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
bin_pn_dot_LDADD = bin/libcli.la libpn-render.la libpn.la $(JANSSON_LIBS)
bin_PROGRAMS += bin/pn-maxplus
bin_pn_maxplus_SOURCES = %reldir%/pn-maxplus.c
bin_pn_maxplus_LDADD = bin/libcli.la libpn.la -lm
bin_PROGRAMS += bin/pn-reach
bin_pn_reach_SOURCES = %reldir%/pn-reach.c %reldir%/reach-graph.c \
	%reldir%/reach-graph.h
bin_pn_reach_LDADD = bin/libcli.la libpn.la
bin_PROGRAMS += bin/pn-gpu
bin_pn_gpu_SOURCES = %reldir%/pn-gpu.c
bin_pn_gpu_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
bin_pn_gpu_LDADD = bin/libcli.la libpn.la $(JANSSON_LIBS) -lm
bin_PROGRAMS += bin/pn-sweep
bin_pn_sweep_SOURCES = %reldir%/pn-sweep.c %reldir%/sweep.c %reldir%/sweep.h \
	%reldir%/sweep-spec.c %reldir%/sweep-plot.c %reldir%/run-stochastic.c \
	%reldir%/run-stochastic.h
bin_pn_sweep_CFLAGS = $(AM_CFLAGS) -pthread $(YAML_CFLAGS)
bin_pn_sweep_LDADD = bin/libcli.la libpn.la $(YAML_LIBS) -lpthread
if HAVE_MPI
bin_pn_sweep_SOURCES += %reldir%/sweep-mpi.c
bin_pn_sweep_CFLAGS += $(MPI_CFLAGS)
bin_pn_sweep_LDADD += $(MPI_LIBS)
endif
EXTRA_DIST += %reldir%/sweep-mpi.c
bin_PROGRAMS += bin/pn-struct
bin_pn_struct_SOURCES = %reldir%/pn-struct.c
bin_pn_struct_LDADD = bin/libcli.la libpn.la
bin_PROGRAMS += bin/pn-solve
bin_pn_solve_SOURCES = %reldir%/pn-solve.c
bin_pn_solve_LDADD = bin/libcli.la libpn.la -lm
