/*
 * pn/pn.h - umbrella header of libpn, the Petri net toolkit library: the
 * one header a program needs (pkg-config libpn).  Each module's header can
 * also be included alone.  Pictures are a library of their own, so that
 * programs that draw nothing do not load Graphviz's layout engines:
 * pn/dot.h, pkg-config libpn-render.
 *
 * Ownership: see pn/net.h (the net owns what is in it, getters return
 * borrowed pointers, pn_*_new/pn_*_free pairs for what the caller owns).
 * Errors: see pn/status.h.
 */
#ifndef PN_PN_H
#define PN_PN_H

#include "status.h"     /* lib/: status codes, the error record, version */
#include "net.h"        /* lib/: the net model */
#include "groups.h"     /* lib/: node groups and transition classes */
#include "pnml.h"       /* pnml/: reading and writing PNML */
#include "dump.h"       /* pnml/: the canonical text form */
#include "query.h"      /* lib/: reachability queries as data */
#include "mcc.h"        /* pnml/: the Model Checking Contest's property files */
#include "engine.h"     /* engine/: running nets, statistics */
#include "trace.h"      /* engine/: the trace format */
#include "reach.h"      /* analysis/: the state space */
#include "struct.h"     /* analysis/: semiflows, classes, siphons, traps */
#include "graph.h"      /* analysis/: the graph of markings, coverability */
#include "gspn.h"       /* stochastic/: GSPN solved exactly */
#include "sim_gspn.h"   /* stochastic/: GSPN simulated */
#include "results.h"    /* engine/: the result schema (CSV, JSON Lines) */
#include "maxplus.h"    /* maxplus/: the max-plus kernel-time model */
#include "gpu.h"        /* generators/: the GPU warp net */
#include "eventgraph.h" /* generators/: a kernel graph's event graph */
#include "predict.h"    /* gpu/: profiles, devices, kernel time */

#endif
