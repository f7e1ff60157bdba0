# gpu/: kernel time from profiler metrics: profiles, devices, the mapping of
# a launch onto the GPU warp net, prediction, calibration.  Sees
# generators/ (the warp net), engine/ (running it), maxplus/ and lib/.
noinst_LTLIBRARIES += gpu/libpn-gpu.la
gpu_libpn_gpu_la_SOURCES = \
	%reldir%/predict.h %reldir%/profile.c %reldir%/device.c \
	%reldir%/gpu_private.h %reldir%/model.c %reldir%/eval.c
gpu_libpn_gpu_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) -I$(srcdir)/gpu \
	-I$(srcdir)/generators -I$(srcdir)/engine -I$(srcdir)/maxplus \
	-I$(srcdir)/lib
pninclude_HEADERS += %reldir%/predict.h
