lib_libpn_la_SOURCES += %reldir%/gpu.c %reldir%/gpu.h
pkginclude_HEADERS += %reldir%/gpu.h
