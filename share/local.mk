dist_man_MANS += share/man/pn-info.1 share/man/pn-convert.1 share/man/pn-run.1 share/man/pn-gen-gpu.1
EXTRA_DIST += share/examples
