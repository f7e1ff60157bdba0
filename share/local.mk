dist_man_MANS += share/man/pn-info.1 share/man/pn-convert.1 share/man/pn-run.1 share/man/pn-gen-gpu.1 share/man/pn-dot.1 share/man/pn-maxplus.1 share/man/pn-reach.1 share/man/pn-gpu.1 share/man/pn-sweep.1
dist_man_MANS += share/man/pn-struct.1 share/man/pn_struct.3
dist_man_MANS += share/man/pn-solve.1 share/man/pn_gspn.3
dist_man_MANS += share/man/pn_gspn_sim.3
EXTRA_DIST += share/examples

# The pictures in the README, made by the programs themselves.
.PHONY: figures
figures: bin/pn-gen-gpu bin/pn-run bin/pn-dot
	$(MKDIR_P) $(srcdir)/share/figures
	bin/pn-gen-gpu --warps 4 --arith 3 --shared 2 --global 2 -o fig-net.pnml
	bin/pn-dot fig-net.pnml -o $(srcdir)/share/figures/gpu-net.svg
	bin/pn-gen-gpu --warps 64 --quiet -o fig-fold.pnml
	bin/pn-dot --fold fig-fold.pnml -o $(srcdir)/share/figures/gpu-fold.svg
	bin/pn-gen-gpu --warps 8 --arith 10 --shared 4 --global 4 -o fig-run.pnml
	bin/pn-run --seed 1 --trace fig-run.trace fig-run.pnml
	bin/pn-dot --trace fig-run.trace --timeline fig-run.pnml \
	  -o $(srcdir)/share/figures/timeline.svg
	bin/pn-gen-gpu --warps 4 --arith 3 --shared 2 --global 2 -o fig-net.pnml
	bin/pn-run --seed 1 --trace fig-net.trace fig-net.pnml
	bin/pn-dot --html fig-viewer.html --trace fig-net.trace fig-net.pnml
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	  --user-data-dir="$$PWD/fig-profile" --window-size=1400,1000 \
	  --screenshot="$$(cd $(srcdir) && pwd)/share/figures/viewer.png" \
	  "file://$$PWD/fig-viewer.html#step=30&zoom=fit"
	rm -rf fig-fold.pnml fig-net.pnml fig-net.trace fig-run.pnml fig-run.trace \
	  fig-viewer.html fig-profile
EXTRA_DIST += share/figures
EXTRA_DIST += share/gpu-data bench/gpu

# Section 3: one page per function group (written by hand in troff, beside
# the section-1 pages), and for every function a page of its name that
# leads to its group's page (".so man3/group.3"), listed in
# share/man/man3-links ("function page"; tests/installed.sh checks that
# every exported function has one).
dist_man_MANS += share/man/libpn.3 share/man/pn_status.3 share/man/pn_net.3 \
	share/man/pn_pnml.3 share/man/pn_engine.3 share/man/pn_trace.3 \
	share/man/pn_reach.3 share/man/pn_maxplus.3 share/man/pn_gpu.3 \
	share/man/pn_dot.3 share/man/pn_predict.3 share/man/pn_graph.3
EXTRA_DIST += share/man/man3-links
install-data-hook: install-man3-links
uninstall-hook: uninstall-man3-links
.PHONY: install-man3-links uninstall-man3-links
install-man3-links:
	$(MKDIR_P) "$(DESTDIR)$(man3dir)"
	while read -r fn page; do \
	  echo ".so man3/$$page.3" > "$(DESTDIR)$(man3dir)/$$fn.3" || exit 1; \
	done < $(srcdir)/share/man/man3-links
uninstall-man3-links:
	while read -r fn page; do \
	  rm -f "$(DESTDIR)$(man3dir)/$$fn.3"; \
	done < $(srcdir)/share/man/man3-links
