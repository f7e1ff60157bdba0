lib_libpn_la_SOURCES += %reldir%/engine.c %reldir%/engine.h
pkginclude_HEADERS += %reldir%/engine.h
