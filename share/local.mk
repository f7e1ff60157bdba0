dist_man_MANS += share/man/pn-info.1 share/man/pn-convert.1
