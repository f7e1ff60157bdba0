# Benchmarks and fuzzing: never part of `make check`.
# the fuzz targets: one libFuzzer harness per reader of untrusted input,
# each built from the sources of the folders it needs as their local.mk
# list them, rebuilt with clang's fuzzer instrumentation
FUZZ_HARNESSES = tests/fuzz/fuzz-pnml tests/fuzz/fuzz-trace \
	tests/fuzz/fuzz-workload tests/fuzz/fuzz-dot tests/fuzz/fuzz-expr \
	tests/fuzz/fuzz-profile tests/fuzz/fuzz-query
FUZZ_COMMON = tests/fuzz/fuzz-common.c tests/fuzz/fuzz-common.h
FUZZ_PNML_SRC = tests/fuzz/fuzz-pnml.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(pnml_libpn_pnml_la_SOURCES)
FUZZ_TRACE_SRC = tests/fuzz/fuzz-trace.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(engine_libpn_engine_la_SOURCES)
FUZZ_WORKLOAD_SRC = tests/fuzz/fuzz-workload.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(maxplus_libpn_maxplus_la_SOURCES) \
	$(generators_libpn_generators_la_SOURCES)
FUZZ_DOT_SRC = tests/fuzz/fuzz-dot.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(maxplus_libpn_maxplus_la_SOURCES) \
	$(maxplus_libpn_kgraph_la_SOURCES)
FUZZ_EXPR_SRC = tests/fuzz/fuzz-expr.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(maxplus_libpn_maxplus_la_SOURCES)
FUZZ_QUERY_SRC = tests/fuzz/fuzz-query.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(pnml_libpn_pnml_la_SOURCES)
# the readers of gpu/ (not the model beside them); the device table
# applies an architecture to the generator's options, hence generators/
FUZZ_PROFILE_SRC = tests/fuzz/fuzz-profile.c $(FUZZ_COMMON) \
	$(lib_libpn_lib_la_SOURCES) $(maxplus_libpn_maxplus_la_SOURCES) \
	$(generators_libpn_generators_la_SOURCES) \
	gpu/profile.c gpu/device.c
# one harness: $$src its sources (the .c files are compiled), $$inc its
# include folders, $$libs its third-party flags, $$extra its own flags
FUZZ_BUILD = test -n "$(CLANG)" || { \
	  echo "make fuzz needs clang (apt-get install clang)"; exit 1; }; \
	srcs=; for f in $$src; do case $$f in \
	  *.c) srcs="$$srcs $(srcdir)/$$f";; esac; done; \
	flags=; for d in $$inc; do flags="$$flags -I$(srcdir)/$$d"; done; \
	$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined $$extra -I$(builddir) $$flags $$srcs \
	  $$libs -lm -o $@
EXTRA_DIST += bench/gen-big.sh bench/solve.sh

# pn-reach beside TAPAAL's verifypn on ../shared/mcc-scale, each run as
# the contest's harness runs it, in turn, the same budget an examination
# (make bench-scale VERIFYPN=PATH; SCALE_TIME=S, SCALE_EXAMS="RD UB")
.PHONY: bench-scale
bench-scale: bin/pn-reach
	srcdir='$(abs_srcdir)/tests' top_builddir='$(abs_top_builddir)' \
	PN_CORPUS='$(PN_CORPUS)' VERIFYPN='$(VERIFYPN)' \
	sh $(srcdir)/bench/scale-vs.sh
EXTRA_DIST += bench/scale-vs.sh bench/verifypn-mcc.sh
EXTRA_DIST += tests/fuzz/fuzz-pnml.c tests/fuzz/fuzz-trace.c \
	tests/fuzz/fuzz-workload.c tests/fuzz/fuzz-dot.c tests/fuzz/fuzz-expr.c \
	tests/fuzz/fuzz-profile.c tests/fuzz/fuzz-query.c \
	$(FUZZ_COMMON) tests/fuzz/pnml.dict tests/fuzz/trace.dict \
	tests/fuzz/workload.dict tests/fuzz/dot.dict tests/fuzz/expr.dict \
	tests/fuzz/profile.dict tests/fuzz/query.dict \
	bench/fuzz.sh \
	tests/fuzz/regressions tests/fuzz/seeds

.PHONY: fuzz bench
fuzz: $(FUZZ_HARNESSES)
tests/fuzz/fuzz-pnml: $(FUZZ_PNML_SRC)
	$(AM_V_CC)src='$(FUZZ_PNML_SRC)' inc='tests/fuzz lib pnml' \
	  libs='$(XML_CFLAGS) $(XML_LIBS) -pthread' extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-trace: $(FUZZ_TRACE_SRC)
	$(AM_V_CC)src='$(FUZZ_TRACE_SRC)' inc='tests/fuzz lib engine' \
	  libs= extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-workload: $(FUZZ_WORKLOAD_SRC)
	$(AM_V_CC)src='$(FUZZ_WORKLOAD_SRC)' \
	  inc='tests/fuzz lib maxplus generators' libs= extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-dot: $(FUZZ_DOT_SRC)
	$(AM_V_CC)src='$(FUZZ_DOT_SRC)' inc='tests/fuzz lib maxplus' \
	  libs='$(CGRAPH_CFLAGS) $(CGRAPH_LIBS)' extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-expr: $(FUZZ_EXPR_SRC)
	$(AM_V_CC)src='$(FUZZ_EXPR_SRC)' inc='tests/fuzz lib maxplus' \
	  libs= extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-profile: $(FUZZ_PROFILE_SRC)
	$(AM_V_CC)src='$(FUZZ_PROFILE_SRC)' inc='tests/fuzz lib gpu generators maxplus' \
	  libs= extra=; $(FUZZ_BUILD)
tests/fuzz/fuzz-query: $(FUZZ_QUERY_SRC)
	$(AM_V_CC)src='$(FUZZ_QUERY_SRC)' inc='tests/fuzz lib pnml' \
	  libs='$(XML_CFLAGS) $(XML_LIBS) -pthread' extra=; $(FUZZ_BUILD)
CLEANFILES += $(FUZZ_HARNESSES)

# pn-info as it runs installed: libtool's -no-install links it with the
# build's library folders as its run path, where the uninstalled
# bin/.libs/pn-info needs LD_LIBRARY_PATH, whose every folder the loader
# searches for every library (some 130 failed opens, 0.2-0.3 ms: 5-8% of
# a small file's read)
noinst_PROGRAMS += bench/pn-info
bench_pn_info_SOURCES = bin/pn-info.c
bench_pn_info_LDADD = bin/libcli.la libpn.la
bench_pn_info_LDFLAGS = -no-install
bench_pn_info_CPPFLAGS = $(AM_CPPFLAGS)
# the clock and output helpers are the programs' own (bin/cli.c)
noinst_PROGRAMS += bench/bench-read bench/bench-run bench/bench-maxplus bench/bench-reach
bench_bench_maxplus_SOURCES = bench/bench-maxplus.c
bench_bench_maxplus_LDADD = bin/libcli.la $(PN_MODULES) $(PN_MODULE_LIBS)
EXTRA_DIST += bench/bench-maxplus.c
bench_bench_run_SOURCES = bench/bench-run.c bench/loop.c bench/loop.h
bench_bench_run_LDADD = bin/libcli.la $(PN_MODULES) $(PN_MODULE_LIBS)
EXTRA_DIST += bench/bench-run.c bench/loop.c bench/loop.h
bench_bench_reach_SOURCES = bench/bench-reach.c
bench_bench_reach_LDADD = bin/libcli.la $(PN_MODULES) $(PN_MODULE_LIBS)
EXTRA_DIST += bench/bench-reach.c
bench_bench_read_SOURCES = bench/bench-read.c
bench_bench_read_LDADD = bin/libcli.la $(PN_MODULES) $(PN_MODULE_LIBS)
EXTRA_DIST += bench/bench-read.c

BENCH_FILES = CANConstruction-PT-080 ARMCacheCoherence-PT-none \
	JoinFreeModules-PT-2000 Dekker-PT-100 Philosophers-PT-001000 \
	MultiCrashLeafsetExtension-PT-S32C12 ServersAndClients-PT-400080
RUN_BENCH_FILES = CANConstruction-PT-080 ARMCacheCoherence-PT-none \
	JoinFreeModules-PT-2000 Dekker-PT-100
# a net of 20 states: each tool's memory without the states
REACH_BENCH_BASELINE = ResAllocation-PT-R003C002
REACH_BENCH_FILES = Kanban-PT-00005 TCPcondis-PT-05 SharedMemory-PT-000010 \
	HouseConstruction-PT-00005 DoubleExponent-PT-003
bench: bench/bench-read bench/pn-info bench/bench-run bench/bench-maxplus bench/bench-reach bin/pn-run bin/pn-sweep bin/pn-dot bin/pn-gen-gpu tests/svg-overlaps
	@test -n "$(PN_CORPUS)" || { echo "no corpus: ./configure --with-corpus=DIR"; exit 1; }
	@files=; for n in $(BENCH_FILES); do found=; \
	  for d in "$(PN_CORPUS)/mcc" "$(abs_top_builddir)/bench/data"; do \
	    test -f "$$d/$$n.pnml" && files="$$files $$d/$$n.pnml" && found=1; done; \
	  test -n "$$found" || echo "  ($$n: not in $(PN_CORPUS)/mcc or bench/data, left out)"; done; \
	mkdir -p bench/data; test -f bench/data/ring-1M.pnml || \
	  sh $(srcdir)/bench/gen-big.sh 1000000 > bench/data/ring-1M.pnml; \
	files="$$files bench/data/ring-1M.pnml"; \
	for f in $$(ls -S "$(PN_CORPUS)"/mcc/*.pnml); do \
	  case " $$files " in *" $$f "*) ;; *) files="$$files $$f";; esac; done; \
	echo "PNML reader (pn-info, a whole process) vs xmllint --stream --noout (ring-1M: bench/gen-big.sh, 1 M places, 1 M transitions, 2 M arcs; then every other MCC file of the corpus, largest first):"; \
	$(builddir)/bench/bench-read -r 7 -p $(abs_top_builddir)/bench/pn-info $$files; \
	files=; for n in $(RUN_BENCH_FILES); do \
	    test -f "$(PN_CORPUS)/mcc/$$n.pnml" && files="$$files $(PN_CORPUS)/mcc/$$n.pnml"; done; \
	echo; echo "Engine (maximal steps, seed 1; corpus nets: at most 20000 steps):"; \
	$(builddir)/bench/bench-run $(abs_top_builddir)/bin/pn-run $$files; \
	echo; $(builddir)/bench/bench-maxplus 100000; \
	echo; echo "State space (pn-reach, interleaving), MCC 2021 instances:"; \
	files=; for n in $(REACH_BENCH_FILES); do \
	    test -f "$(PN_CORPUS)/../mcc-oracle/$$n/model.pnml" && \
	    files="$$files $(PN_CORPUS)/../mcc-oracle/$$n/model.pnml"; done; \
	if test -n "$(VERIFYPN)"; then \
	  echo "  (each beside TAPAAL's verifypn: $(VERIFYPN) $(VERIFYPN_FLAGS))"; \
	  base=$(PN_CORPUS)/../mcc-oracle/$(REACH_BENCH_BASELINE)/model.pnml; \
	  test -f $$base && base="--baseline $$base" || base=; \
	  $(builddir)/bench/bench-reach --peer "$(VERIFYPN) $(VERIFYPN_FLAGS)" $$base $$files; \
	else $(builddir)/bench/bench-reach $$files; fi; \
	echo; echo "pn-dot on GPU nets (wall time; the arcs' curve points, tests/svg-overlaps):"; \
	for w in 8 32 64; do \
	  $(builddir)/bin/pn-gen-gpu --warps $$w --quiet -o bench-dot.pnml; \
	  for mode in "--positions" "--no-fold --layout sfdp" "--no-fold --layout dot"; do \
	    s=$$(date +%s.%N); \
	    if $(builddir)/bin/pn-dot $$mode bench-dot.pnml -o bench-dot.svg 2>/dev/null; then \
	      e=$$(date +%s.%N); echo "  $$w warps, $$mode: $$(awk "BEGIN {print $$e - $$s}") s ($$($(builddir)/tests/svg-overlaps bench-dot.svg | sed 's/.*; //'))"; \
	    else echo "  $$w warps, $$mode: refused (too large for that layout)"; fi; \
	  done; done; rm -f bench-dot.pnml bench-dot.svg
	@$(MAKE) --no-print-directory bench-sweep
	@$(MAKE) --no-print-directory bench-solve
	@$(MAKE) --no-print-directory bench-gspn
# pn-solve on the Kanban GSPN, N = 3, 4, 5 (part of make bench; N = 5
# needs about 1.6 GB)
.PHONY: bench-solve
bench-solve: bin/pn-solve bench/kanban-reference
	@echo; echo "pn-solve, Kanban (Gauss-Seidel; CPU time of one thread):"; \
	sh $(srcdir)/bench/solve.sh $(builddir)/bin/pn-solve \
	  $(srcdir)/tests/gspn/kanban.xml $(builddir)/bench/kanban-reference \
	  $(KANBAN_N)
KANBAN_N = 3 4 5
# the Kanban chain built apart from the net (built for bench-solve only)
EXTRA_PROGRAMS = bench/kanban-reference
bench_kanban_reference_SOURCES = bench/kanban-reference.c
bench_kanban_reference_LDADD = -lm
CLEANFILES += bench/kanban-reference
# pn-run --semantics stochastic: firings per second of the continuous-time
# simulation on PIPE's Courier protocol (21 exponential, 13 immediate
# transitions), the steady-state run held to GSPN_FIRINGS by an accuracy
# it cannot reach (part of make bench; target 10^7 firings/s)
.PHONY: bench-gspn
bench-gspn: bin/pn-run
	@echo; f="$(PN_CORPUS)/pipe/Courier_Protocol.xml"; \
	if test ! -f "$$f"; then echo "GSPN simulation: $$f not found, left out"; exit 0; fi; \
	echo "GSPN simulation (pn-run --semantics stochastic --max-steps $(GSPN_FIRINGS) --accuracy 1e-9 -q Courier_Protocol.xml):"; \
	s=$$(date +%s.%N); \
	out=$$( { $(builddir)/bin/pn-run --semantics stochastic --max-steps $(GSPN_FIRINGS) \
	  --accuracy 1e-9 -q "$$f" 2>/dev/null; times; } ); \
	e=$$(date +%s.%N); \
	n=$$(echo "$$out" | sed -n 's/^steady state: \([0-9]*\) firings.*/\1/p'); \
	cpu=$$(echo "$$out" | tail -1 | sed 's/^\([0-9]*\)m\([0-9.]*\)s .*/\1 \2/' | awk '{print $$1 * 60 + $$2}'); \
	awk -v n="$$n" -v s=$$s -v e=$$e -v c=$$cpu 'BEGIN { \
	  printf "  %d firings in %.2f s wall, %.2f s CPU: %.1f M firings/s of CPU, %.1f M of wall (target 10 M)\n", \
	    n, e - s, c, n / c / 1e6, n / (e - s) / 1e6 }'; \
	echo "  (load average: $$(cut -d' ' -f1-3 /proc/loadavg) on $$(nproc) cores)"
GSPN_FIRINGS = 50000000
# pn-sweep's runs/s alone (part of make bench)
.PHONY: bench-sweep
bench-sweep: bin/pn-run bin/pn-sweep bin/pn-gen-gpu
	@echo; echo "pn-sweep, one point of 32 warps, $(SWEEP_RUNS) runs (wall time; the bare engine: pn-run --runs --jobs 1):"; \
	$(builddir)/bin/pn-gen-gpu --warps 32 --quiet -o bench-sweep.pnml; \
	t() { s=$$(date +%s.%N); "$$@" > /dev/null || exit 1; e=$$(date +%s.%N); \
	  awk "BEGIN {print $$e - $$s}"; }; \
	bare=$$(t $(builddir)/bin/pn-run --runs $(SWEEP_RUNS) --jobs 1 -q -f csv bench-sweep.pnml); \
	one=$$(t $(builddir)/bin/pn-sweep --param warps=32 --runs $(SWEEP_RUNS) --jobs 1 -q -o /dev/null); \
	two=$$(t $(builddir)/bin/pn-sweep --param warps=32 --runs $(SWEEP_RUNS) --jobs 2 -q -o /dev/null); \
	awk -v n=$(SWEEP_RUNS) -v b=$$bare -v a=$$one -v c=$$two 'BEGIN { \
	  printf "  bare engine:        %8.0f runs/s\n", n / b; \
	  printf "  pn-sweep 1 thread:  %8.0f runs/s  (time %.3fx the bare engine; target <= 1.05)\n", n / a, a / b; \
	  printf "  pn-sweep 2 threads: %8.0f runs/s  (%.2fx 1 thread; target >= 1.8 on 2 idle cores)\n", n / c, a / c }'; \
	if grep -q '^#define HAVE_MPI 1' config.h && test -n "$(MPIRUN)"; then \
	  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; \
	  mpi=$$(t $(MPIRUN) --allow-run-as-root -np 2 \
	    $(builddir)/bin/pn-sweep --param warps=32 --runs $(SWEEP_RUNS) -q -o /dev/null); \
	  up=$$(t $(MPIRUN) --allow-run-as-root -np 2 \
	    $(builddir)/bin/pn-sweep --param warps=32 --runs 1 -q -o /dev/null); \
	  awk -v n=$(SWEEP_RUNS) -v a=$$one -v c=$$mpi -v u=$$up 'BEGIN { \
	  printf "  mpirun -np 2:       %8.0f runs/s  (%.2fx 1 thread; target >= 1.8)\n", n / c, a / c; \
	  if (c > u) printf "    without mpirun start-up (%.2f s, a sweep of 1 run): %.0f runs/s, %.2fx 1 thread\n", u, n / (c - u), a / (c - u) }'; \
	else echo "  mpirun -np 2:       (pn-sweep built without MPI)"; fi; \
	echo "  (load average: $$(cut -d' ' -f1-3 /proc/loadavg) on $$(nproc) cores: the ratios need idle cores)"; \
	rm -f bench-sweep.pnml
SWEEP_RUNS = 5000
# make bench VERIFYPN=/path/to/verifypn: the state-space lines get
# verifypn's beside ours (full state space, no structural reduction, BFS;
# it reads the query file but explores without it)
VERIFYPN =
VERIFYPN_FLAGS = -e -r 0 -s BFS {} {dir}/UpperBounds.xml
BENCH_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/bin
bench_bench_read_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_run_CPPFLAGS = $(BENCH_CPPFLAGS) -I$(srcdir)/bench
bench_bench_maxplus_CPPFLAGS = $(BENCH_CPPFLAGS)
bench_bench_reach_CPPFLAGS = $(BENCH_CPPFLAGS)
# pn-dot --html at scale (64 warps, 10,000 steps) in headless Chromium
.PHONY: bench-html
bench-html: bin/pn-gen-gpu bin/pn-run bin/pn-dot
	sh $(srcdir)/bench/html.sh $(builddir)
EXTRA_DIST += bench/html.sh
