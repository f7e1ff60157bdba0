# stochastic/: generalized stochastic Petri nets solved exactly (gspn.c:
# the store of markings and the firing rule with time; trg.c: the tangible
# reachability graph, vanishing markings eliminated on the fly; ctmc.c:
# bottom components, the steady state or absorption, by UMFPACK's LU or
# Gauss-Seidel; transient.c: the distribution at given times by
# uniformization).  The private interface between them is gspn_private.h,
# the public header gspn.h.  Sees lib/ only; UMFPACK when configure finds
# it.
noinst_LTLIBRARIES += stochastic/libpn-stochastic.la
stochastic_libpn_stochastic_la_SOURCES = \
	%reldir%/gspn.h %reldir%/gspn_private.h \
	%reldir%/gspn.c %reldir%/trg.c %reldir%/ctmc.c %reldir%/transient.c
# the simulator (sim.c: one run in continuous time; sim_stats.c: the
# estimates, with threads for independent runs)
stochastic_libpn_stochastic_la_SOURCES += \
	%reldir%/sim_gspn.h %reldir%/sim_private.h \
	%reldir%/sim.c %reldir%/sim_stats.c
stochastic_libpn_stochastic_la_CFLAGS = $(AM_CFLAGS) -pthread
stochastic_libpn_stochastic_la_CPPFLAGS = $(PN_BASE_CPPFLAGS) \
	-I$(srcdir)/stochastic -I$(srcdir)/lib
stochastic_libpn_stochastic_la_LIBADD = $(UMFPACK_LIBS)
pninclude_HEADERS += %reldir%/gspn.h %reldir%/sim_gspn.h
