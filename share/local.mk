dist_man_MANS += share/man/pn-info.1 share/man/pn-convert.1 share/man/pn-run.1 share/man/pn-gen-gpu.1 share/man/pn-dot.1 share/man/pn-maxplus.1 share/man/pn-reach.1 share/man/pn-sweep.1
EXTRA_DIST += share/examples

# The pictures in the README, made by the programs themselves.
.PHONY: figures
figures: bin/pn-gen-gpu bin/pn-run bin/pn-dot
	$(MKDIR_P) $(srcdir)/share/figures
	bin/pn-gen-gpu --warps 4 --arith 3 --shared 2 --global 2 -o fig-net.pnml
	bin/pn-dot --positions fig-net.pnml -o $(srcdir)/share/figures/gpu-net.svg
	bin/pn-gen-gpu --warps 8 --arith 10 --shared 4 --global 4 -o fig-run.pnml
	bin/pn-run --seed 1 --trace fig-run.trace fig-run.pnml
	bin/pn-dot --trace fig-run.trace --timeline fig-run.pnml \
	  -o $(srcdir)/share/figures/timeline.svg
	rm -f fig-net.pnml fig-run.pnml fig-run.trace
EXTRA_DIST += share/figures
