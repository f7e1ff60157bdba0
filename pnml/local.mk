lib_libpn_la_SOURCES += \
	%reldir%/reader.c %reldir%/writer.c %reldir%/io.c \
	%reldir%/pnml.h %reldir%/pnml_private.h
pninclude_HEADERS += %reldir%/pnml.h
