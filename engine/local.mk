lib_libpn_la_SOURCES += %reldir%/engine.c %reldir%/engine.h \
	%reldir%/maxplus.c %reldir%/kernel.c %reldir%/maxplus.h
pninclude_HEADERS += %reldir%/engine.h %reldir%/maxplus.h
