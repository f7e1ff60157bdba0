# One Check program per module, then command-line scripts.
AM_TESTS_ENVIRONMENT = \
	srcdir='$(abs_srcdir)/tests'; export srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	PN_CORPUS='$(PN_CORPUS)'; export PN_CORPUS; \
	JING='$(JING)'; export JING; \
	CC='$(CC)'; export CC; \
	CK_DEFAULT_TIMEOUT=600; export CK_DEFAULT_TIMEOUT;

check_PROGRAMS += tests/test_net tests/test_pnml tests/test_engine tests/test_gpu \
	tests/test_dot tests/test_maxplus tests/test_reach tests/test_gpu_profile \
	tests/test_errors tests/test_graph
tests_test_net_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_net_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
tests_test_pnml_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(XML_CFLAGS)
tests_test_pnml_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_engine_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_engine_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_gpu_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_dot_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(GVC_CFLAGS) $(XML_CFLAGS)
tests_test_dot_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_reach_SOURCES = tests/test_reach.c tests/testutil.c
tests_test_reach_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_reach_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
# the state equation, the walks and pn_reach_solve() against the search
check_PROGRAMS += tests/test_lp
TESTS += tests/test_lp
tests_test_lp_SOURCES = tests/test_lp.c tests/testutil.c
tests_test_lp_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_lp_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

# stubborn sets against the full search (analysis/stubborn.c)
check_PROGRAMS += tests/test_stubborn
TESTS += tests/test_stubborn
tests_test_stubborn_SOURCES = tests/test_stubborn.c tests/testutil.c
tests_test_stubborn_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_stubborn_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

# symmetry against the full search (analysis/symmetry.c)
check_PROGRAMS += tests/test_symmetry
TESTS += tests/test_symmetry
tests_test_symmetry_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_symmetry_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

# CTL against a textbook model checker (analysis/ctl.c)
check_PROGRAMS += tests/test_ctl
TESTS += tests/test_ctl
tests_test_ctl_SOURCES = tests/test_ctl.c tests/testutil.c
tests_test_ctl_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_ctl_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
# LTL: the tableau against the formulas' meaning on words, the checker
# against lassos enumerated by brute force (analysis/buchi.c, ltl.c)
check_PROGRAMS += tests/test_ltl
TESTS += tests/test_ltl
tests_test_ltl_SOURCES = tests/test_ltl.c tests/testutil.c
tests_test_ltl_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_ltl_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_graph_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_graph_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_maxplus_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_maxplus_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

tests_test_gpu_profile_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_gpu_profile_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

# the error record's contract, for every function that takes one
tests_test_errors_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_errors_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)

# four threads reading, writing, compiling and running nets at once, built
# from the library's sources with ThreadSanitizer (TSAN_FLAGS, when the
# compiler has it): a race in the library fails it
check_PROGRAMS += tests/test_threads
tests_test_threads_SOURCES = tests/test_threads.c \
	$(lib_libpn_lib_la_SOURCES) $(pnml_libpn_pnml_la_SOURCES) \
	$(engine_libpn_engine_la_SOURCES) $(maxplus_libpn_maxplus_la_SOURCES) \
	$(generators_libpn_generators_la_SOURCES)
tests_test_threads_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS) $(TSAN_FLAGS) -pthread
tests_test_threads_LDFLAGS = $(TSAN_FLAGS) -pthread
tests_test_threads_LDADD = $(XML_LIBS) -lm
TESTS += tests/test_threads

TESTS += tests/test_net tests/test_pnml tests/test_engine tests/test_gpu \
	tests/test_dot tests/test_maxplus tests/test_reach tests/test_gpu_profile \
	tests/test_errors tests/test_graph
EXTRA_DIST += tests/pnml tests/data/gpu tests/data/coverability
TESTS += tests/installed.sh
EXTRA_DIST += tests/installed.sh
TESTS += tests/hostile.sh tests/cli-pnml.sh tests/cli-run.sh tests/cli-sweep.sh tests/cli-sweep-mpi.sh tests/cli-gpu.sh tests/cli-dot.sh tests/cli-maxplus.sh tests/check-exports.sh tests/check-layers.sh tests/readme.sh tests/mcc-small.sh tests/cli-reach.sh tests/cli-graph.sh
EXTRA_DIST += tests/hostile.sh tests/hostile tests/lib.sh tests/cli-sweep.sh tests/cli-sweep-mpi.sh tests/cli-gpu.sh tests/mcc.sh tests/mcc-small.sh tests/cli-reach.sh tests/check-layers.sh tests/cli-maxplus.sh tests/cli-dot.sh tests/cli-run.sh tests/cli-pnml.sh tests/check-exports.sh tests/readme.sh tests/cli-graph.sh
EXTRA_DIST += tests/lsan.supp tests/libpn.exports tests/libpn-render.exports
EXTRA_DIST += tests/summary.sh
EXTRA_DIST += tests/testutil.h

# pn-reach against the Model Checking Contest's answers: every instance
# (make check runs the ones up to 10,000 states: tests/mcc-small.sh)
.PHONY: check-mcc
check-mcc: bin/pn-reach
	srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' MCC_MAX_STATES=0 sh $(srcdir)/tests/mcc.sh

# pn-reach on instances too large to search, as the contest's harness
# runs it (not in make check: minutes; SCALE_TIME=S seconds an
# examination, default 10)
.PHONY: check-scale
check-scale: bin/pn-reach
	srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' sh $(srcdir)/tests/scale.sh
EXTRA_DIST += tests/scale.sh
# answers as they come, a kill, --time-limit, on a net too large to search
TESTS += tests/cli-scale.sh
EXTRA_DIST += tests/cli-scale.sh
# make bench-scale's figures, with a stand-in for verifypn
TESTS += tests/bench-scale.sh
EXTRA_DIST += tests/bench-scale.sh

# pn-gpu's model and evaluation (gpu/)
check_PROGRAMS += tests/test_gpu_model
tests_test_gpu_model_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_gpu_model_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
TESTS += tests/test_gpu_model
# pn-dot --html: the page's data and shape (cli-html.sh), and the page in
# a real browser, headless Chromium (html-browser.sh; skipped without it)
TESTS += tests/cli-html.sh tests/html-browser.sh
EXTRA_DIST += tests/cli-html.sh tests/html-browser.sh
# lassos: pn-reach --witness writes them, pn-dot --trace marks the loop
TESTS += tests/cli-loop.sh
EXTRA_DIST += tests/cli-loop.sh
# one letter, one meaning, across every program's --help and the table of
# doc/architecture.md
TESTS += tests/cli-letters.sh
EXTRA_DIST += tests/cli-letters.sh
# one growing string, one JSON escaper, one CSV reader: in lib/
TESTS += tests/check-helpers.sh
EXTRA_DIST += tests/check-helpers.sh
# no library file over 1,500 lines, no function over 150 (the longest are
# listed: sh tests/check-sizes.sh)
TESTS += tests/check-sizes.sh
EXTRA_DIST += tests/check-sizes.sh
# transitions' timing (PIPE's stochastic nets) through pn-info and
# pn-convert, and what a dialect cannot say refused
TESTS += tests/cli-timing.sh
EXTRA_DIST += tests/cli-timing.sh
TESTS += tests/cli-rates.sh
EXTRA_DIST += tests/cli-rates.sh
TESTS += tests/cli-pnpro-write.sh
EXTRA_DIST += tests/cli-pnpro-write.sh
# GreatSPN's PNPRO projects (tests/pnpro/, GreatSPN's own files) read with
# their timing, and what they say that is not read refused at its line
TESTS += tests/cli-pnpro.sh
EXTRA_DIST += tests/cli-pnpro.sh tests/pnpro

# the readability check of pictures (tests/svgcheck.h, as in test_dot) on
# SVG files: for measuring the pictures of large nets; svg-layout.sh holds
# the pictures of GPU nets to it
check_PROGRAMS += tests/svg-overlaps
tests_svg_overlaps_SOURCES = tests/svg-overlaps.c tests/svgcheck.h
tests_svg_overlaps_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
tests_svg_overlaps_LDADD = $(XML_LIBS) -lm
tests_test_dot_SOURCES = tests/test_dot.c tests/svgcheck.h
TESTS += tests/svg-layout.sh
EXTRA_DIST += tests/svg-layout.sh

# the fuzz harnesses replayed on their seeds without libFuzzer
# (tests/fuzz/replay.c, tests/fuzz-replay.sh)
FUZZ_REPLAYS = tests/fuzz/replay-pnml tests/fuzz/replay-trace \
	tests/fuzz/replay-workload tests/fuzz/replay-dot tests/fuzz/replay-expr \
	tests/fuzz/replay-profile tests/fuzz/replay-query
check_PROGRAMS += $(FUZZ_REPLAYS)
# the runner and the harnesses' helpers: one object for all seven
REPLAY_SOURCES = tests/fuzz/replay.c tests/fuzz/fuzz-common.c \
	tests/fuzz/fuzz-common.h
REPLAY_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) -lpthread
tests_fuzz_replay_pnml_SOURCES = tests/fuzz/fuzz-pnml.c $(REPLAY_SOURCES)
tests_fuzz_replay_pnml_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS) -pthread
tests_fuzz_replay_pnml_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_query_SOURCES = tests/fuzz/fuzz-query.c $(REPLAY_SOURCES)
tests_fuzz_replay_query_CFLAGS = $(AM_CFLAGS) $(XML_CFLAGS)
tests_fuzz_replay_query_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_trace_SOURCES = tests/fuzz/fuzz-trace.c $(REPLAY_SOURCES)
tests_fuzz_replay_trace_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_workload_SOURCES = tests/fuzz/fuzz-workload.c $(REPLAY_SOURCES)
tests_fuzz_replay_workload_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_dot_SOURCES = tests/fuzz/fuzz-dot.c $(REPLAY_SOURCES)
tests_fuzz_replay_dot_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_expr_SOURCES = tests/fuzz/fuzz-expr.c $(REPLAY_SOURCES)
tests_fuzz_replay_expr_LDADD = $(REPLAY_LDADD)
tests_fuzz_replay_profile_SOURCES = tests/fuzz/fuzz-profile.c $(REPLAY_SOURCES)
tests_fuzz_replay_profile_LDADD = $(REPLAY_LDADD)
TESTS += tests/fuzz-replay.sh
EXTRA_DIST += tests/fuzz-replay.sh
# pn/struct.h and pn-struct: siphons and traps against brute force, the
# semiflows' properties (test_struct); the program on Murata's classes
# (tests/struct), its limits and a net of 100,000 places (cli-struct.sh);
# the minimal semiflows against 4ti2's (struct-4ti2.sh: small nets here,
# every MCC model and the corpus's nets under make check-mcc); the
# contest's OneSafe and StableMarking where the P-semiflows decide them,
# OneSafe and Liveness where the linear programs and siphons do
# (struct-mcc.sh, under make check-mcc)
check_PROGRAMS += tests/test_struct
tests_test_struct_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_struct_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
TESTS += tests/test_struct tests/cli-struct.sh tests/struct-4ti2.sh
EXTRA_DIST += tests/cli-struct.sh tests/struct-4ti2.sh tests/struct-mcc.sh \
	tests/struct
# (its FAIL lines are printed and make goes on: pn-reach's comparison
# under check-mcc still runs)
.PHONY: check-mcc-struct
check-mcc: check-mcc-struct
check-mcc-struct: bin/pn-struct bin/pn-info
	-srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' STRUCT_ALL=1 sh $(srcdir)/tests/struct-4ti2.sh
	-srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' sh $(srcdir)/tests/struct-mcc.sh

# pn-solve: PIPE's GSPNs (tests/gspn) against queueing closed forms, an
# absorbing net, an absorbing vanishing loop (cli-solve.sh)
TESTS += tests/cli-solve.sh
EXTRA_DIST += tests/cli-solve.sh tests/gspn

# the GSPN simulator: its random stream, Student's t, deterministic
# delays, priorities and weights, enabling memory, --jobs (stochastic/sim*)
check_PROGRAMS += tests/test_gspn_sim
TESTS += tests/test_gspn_sim
tests_test_gspn_sim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_gspn_sim_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
# pn-run --semantics stochastic: interval coverage over many seeds, the
# exact values of pn-solve, absorption, --jobs (cli-gspn-sim.sh)
TESTS += tests/cli-gspn-sim.sh
EXTRA_DIST += tests/cli-gspn-sim.sh

# the GPU warp net with time: one warp's mean time is its steps
# (cli-gpu-time.sh)
TESTS += tests/cli-gpu-time.sh
EXTRA_DIST += tests/cli-gpu-time.sh

# pn-sweep --semantics stochastic: pn-run's estimates a point
# (cli-sweep-stochastic.sh)
TESTS += tests/cli-sweep-stochastic.sh
EXTRA_DIST += tests/cli-sweep-stochastic.sh
# structural reductions (analysis/reduce.c) against the full search
check_PROGRAMS += tests/test_reduce
TESTS += tests/test_reduce
tests_test_reduce_SOURCES = tests/test_reduce.c tests/testutil.c
tests_test_reduce_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_reduce_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS) $(CHECK_LIBS)
# the same on three of the contest's small instances (cli-reduce.sh), on
# sixteen under make check-mcc
check_PROGRAMS += tests/reduce-mcc
tests_reduce_mcc_LDADD = $(PN_MODULES) $(PN_MODULE_LIBS)
TESTS += tests/cli-reduce.sh
EXTRA_DIST += tests/cli-reduce.sh
.PHONY: check-mcc-reduce
check-mcc: check-mcc-reduce
check-mcc-reduce: tests/reduce-mcc
	srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' REDUCE_ALL=1 sh $(srcdir)/tests/cli-reduce.sh
# the random comparisons of the Check programs at their full count
# (tu_count() in tests/testutil.h; make check runs fewer nets)
.PHONY: check-full
check-mcc: check-full
check-full: tests/test_stubborn tests/test_reduce
	PN_TEST_FULL=1 $(top_builddir)/tests/test_stubborn
	PN_TEST_FULL=1 $(top_builddir)/tests/test_reduce
# pn-dot on stochastic nets: the timing, pn-solve's solution drawn
TESTS += tests/cli-dot-rates.sh
EXTRA_DIST += tests/cli-dot-rates.sh
