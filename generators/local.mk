lib_libpn_la_SOURCES += %reldir%/gpu.c %reldir%/gpu.h
pninclude_HEADERS += %reldir%/gpu.h
