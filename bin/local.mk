bin_PROGRAMS += bin/pn-info bin/pn-convert
noinst_LTLIBRARIES = bin/libcli.la
bin_libcli_la_SOURCES = %reldir%/cli.c %reldir%/cli.h
bin_pn_info_SOURCES = %reldir%/pn-info.c
bin_pn_info_LDADD = bin/libcli.la lib/libpn.la
bin_pn_convert_SOURCES = %reldir%/pn-convert.c
bin_pn_convert_LDADD = bin/libcli.la lib/libpn.la
