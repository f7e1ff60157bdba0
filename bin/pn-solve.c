/* pn-solve: a generalized stochastic Petri net solved exactly: its
 * tangible reachability graph, the Markov chain's steady state or its
 * absorption, throughputs and mean tokens (pn/gspn.h). */
#include <config.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lib_private.h"
#include "pn.h"

static const char *prog = "pn-solve";

static void usage(FILE *out)
{
    fprintf(out,
        "Usage: %s [OPTION]... FILE\n"
        "Solve the net in FILE ('-': standard input) as a generalized\n"
        "stochastic Petri net: exponential transitions with their rates\n"
        "(times the enabling degree under infinite-server semantics),\n"
        "immediate ones by priority and weight, transitions without timing\n"
        "as exponential of rate 1.  Builds the tangible reachability graph,\n"
        "finds the Markov chain's bottom components, and prints its steady\n"
        "state's throughputs and mean tokens, or, when a dead marking is\n"
        "reachable, the mean time to absorption and where it ends.  With\n"
        "--time, the same measures at each time from the initial marking\n"
        "(the transient distribution, by uniformization).\n"
        "\n"
        "      --max-states N    explore at most N markings (default %d)\n"
        "      --direct-max N    direct LU up to N states, Gauss-Seidel\n"
        "                        beyond (default %d)\n"
        "      --max-iter N      Gauss-Seidel sweeps at most (default 100000)\n"
        "      --tolerance E     Gauss-Seidel stops below this relative\n"
        "                        residual ||pi Q||_1 / ||pi D||_1 (default\n"
        "                        1e-12)\n"
        "      --time T1,T2,...  the measures at these times too (transient)\n"
        "      --epsilon E       the probability the transient solution may\n"
        "                        leave out at each time (default 1e-12)\n"
        "  -f, --format FMT      text (default) or json\n"
        "      --net ID          read the <net> with this id\n",
        prog, PN_GSPN_MAX_STATES, PN_GSPN_DIRECT_MAX);
    cli_usage_common(out, 24);
    fprintf(out,
        "\n"
        "Exit status: 0 solved, 1 the net could not be read or solved (a\n"
        "deterministic transition, an absorbing vanishing loop, too many\n"
        "markings), 2 bad command line, 3 the output could not be written,\n"
        "4 no answer: Gauss-Seidel did not converge, or the chain has\n"
        "several bottom components.\n");
}

enum { OPT_MAX_STATES = 128, OPT_DIRECT_MAX, OPT_MAX_ITER, OPT_NET,
       OPT_TIME, OPT_EPSILON, OPT_TOLERANCE };

/* The times of --time: T1,T2,... each a number >= 0, appended to
 * *times; 0, or -1 after the message. */
static int parse_times(const char *arg, double **times, size_t *n)
{
    char *copy = strdup(arg), *save = NULL;
    if (!copy)
        return -1;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc;
         tok = strtok_r(NULL, ",", &save)) {
        double v, *grown = realloc(*times, (*n + 1) * sizeof **times);
        if (!grown) {
            rc = -1;
            break;
        }
        *times = grown;
        if ((rc = cli_real("--time", tok, 0, INFINITY, &v)))
            break;
        (*times)[(*n)++] = v;
    }
    if (!rc && (!*arg || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,") ||
                *arg == ',')) {
        fprintf(stderr, "%s: --time: '%s' is not a list of times\n", prog,
                arg);
        rc = -1;
    }
    free(copy);
    return rc;
}

static const char *kind_word(pn_gspn_kind_t k)
{
    return k == PN_GSPN_ERGODIC ? "ergodic"
           : k == PN_GSPN_ABSORBING ? "absorbing" : "multiple";
}

static const char *label(const char *name, const char *id)
{
    return name && *name ? name : id;
}

/* A number in JSON: null when it is not finite. */
static void jnum(double v)
{
    if (isfinite(v))
        printf("%.17g", v);
    else
        printf("null");
}

static void text_dead(const pn_net_t *net, const pn_gspn_result_t *r)
{
    printf("no steady state: %zu dead marking%s reachable\n", r->dead,
           r->dead == 1 ? " is" : "s are");
    if (!r->mtta_known) {
        printf("absorption: not computed (a bottom component that is not a "
               "dead marking is reachable too)\n");
        return;
    }
    printf("mean time to absorption: %.10g\n", r->mtta);
    for (size_t d = 0; d < r->dead; d++) {
        printf("  dead marking %zu (probability %.10g):", d + 1,
               r->dead_probability[d]);
        int any = 0;
        for (size_t p = 0; p < r->places; p++) {
            uint64_t v = r->dead_marking[d * r->places + p];
            if (v) {
                printf(" %s=%" PRIu64, pn_net_place(net, p)->id, v);
                any = 1;
            }
        }
        printf("%s\n", any ? "" : " (empty)");
    }
}

static void text_report(const pn_net_t *net, const pn_gspn_result_t *r,
                        const char *file)
{
    printf("file:        %s\n", file);
    printf("net:         %s (%zu places, %zu transitions)\n",
           label(pn_net_name(net), pn_net_id(net) ? pn_net_id(net) : "-"),
           r->places, r->transitions);
    printf("states:      %zu tangible, %zu vanishing, %zu rates\n",
           r->tangible, r->vanishing, r->edges);
    printf("chain:       %s (%zu bottom component%s)\n", kind_word(r->kind),
           r->bottom, r->bottom == 1 ? "" : "s");
    if (strcmp(r->solver, "none"))
        printf("solver:      %s, %zu sweeps, residual %.3g (relative "
               "%.3g)%s\n", r->solver, r->iterations, r->residual,
               r->residual_relative, r->converged ? "" : " (NOT converged)");
    if (r->kind == PN_GSPN_ABSORBING) {
        text_dead(net, r);
        return;
    }
    if (r->kind == PN_GSPN_MULTIPLE) {
        printf("no steady state: the long run depends on which bottom "
               "component is reached (not solved)\n");
        return;
    }
    printf("recurrent:   %zu states\n", r->recurrent);
    printf("throughput:\n");
    for (size_t t = 0; t < r->transitions; t++) {
        const pn_transition_t *tr = pn_net_transition(net, t);
        printf("  %-20s %.10g\n", label(tr->name, tr->id), r->throughput[t]);
    }
    printf("mean tokens:\n");
    for (size_t p = 0; p < r->places; p++) {
        const pn_place_t *pl = pn_net_place(net, p);
        printf("  %-20s %.10g\n", label(pl->name, pl->id),
               r->mean_tokens[p]);
    }
}

/* The transient measures: one block a time, as the steady state's. */
static void text_transient(const pn_net_t *net, const pn_gspn_result_t *r)
{
    printf("transient:   uniformization at rate %.6g, %zu steps, "
           "probability left out <= %.3g\n", r->uniform_rate, r->tr_steps,
           r->tr_error);
    for (size_t i = 0; i < r->ntimes; i++) {
        printf("at time %.10g:\n", r->times[i]);
        if (r->dead)
            printf("  dead:      %.10g\n", r->tr_dead[i]);
        printf("  throughput:\n");
        for (size_t t = 0; t < r->transitions; t++) {
            const pn_transition_t *tr = pn_net_transition(net, t);
            printf("    %-20s %.10g\n", label(tr->name, tr->id),
                   r->tr_throughput[i * r->transitions + t]);
        }
        printf("  mean tokens:\n");
        for (size_t p = 0; p < r->places; p++) {
            const pn_place_t *pl = pn_net_place(net, p);
            printf("    %-20s %.10g\n", label(pl->name, pl->id),
                   r->tr_mean_tokens[i * r->places + p]);
        }
    }
}

/* {"id": v, ...} of n values */
static void json_map(const pn_net_t *net, int places, const double *v,
                     size_t n)
{
    printf("{");
    for (size_t k = 0; k < n; k++) {
        printf("%s", k ? ", " : "");
        pni_json_string(stdout, places ? pn_net_place(net, k)->id
                                       : pn_net_transition(net, k)->id, 0);
        printf(": ");
        jnum(v[k]);
    }
    printf("}");
}

static void json_transient(const pn_net_t *net, const pn_gspn_result_t *r)
{
    printf(", \"uniformization\": {\"rate\": ");
    jnum(r->uniform_rate);
    printf(", \"steps\": %zu, \"error\": ", r->tr_steps);
    jnum(r->tr_error);
    printf("}, \"transient\": [");
    for (size_t i = 0; i < r->ntimes; i++) {
        printf("%s{\"time\": ", i ? ", " : "");
        jnum(r->times[i]);
        printf(", \"dead\": ");
        jnum(r->tr_dead[i]);
        printf(", \"throughput\": ");
        json_map(net, 0, r->tr_throughput + i * r->transitions,
                 r->transitions);
        printf(", \"mean_tokens\": ");
        json_map(net, 1, r->tr_mean_tokens + i * r->places, r->places);
        printf("}");
    }
    printf("]");
}

static void json_report(const pn_net_t *net, const pn_gspn_result_t *r,
                        const char *file)
{
    printf("{\"file\": ");
    pni_json_string(stdout, file, 0);
    printf(", \"places\": %zu, \"transitions\": %zu, \"tangible\": %zu, "
           "\"vanishing\": %zu, \"rates\": %zu, \"kind\": \"%s\", "
           "\"bottom\": %zu, \"solver\": \"%s\", \"iterations\": %zu, "
           "\"residual\": ", r->places, r->transitions, r->tangible,
           r->vanishing, r->edges, kind_word(r->kind), r->bottom, r->solver,
           r->iterations);
    jnum(r->residual);
    printf(", \"residual_relative\": ");
    jnum(r->residual_relative);
    printf(", \"converged\": %s", r->converged ? "true" : "false");
    if (r->kind == PN_GSPN_ERGODIC) {
        printf(", \"recurrent\": %zu, \"throughput\": {", r->recurrent);
        for (size_t t = 0; t < r->transitions; t++) {
            printf("%s", t ? ", " : "");
            pni_json_string(stdout, pn_net_transition(net, t)->id, 0);
            printf(": ");
            jnum(r->throughput[t]);
        }
        printf("}, \"mean_tokens\": {");
        for (size_t p = 0; p < r->places; p++) {
            printf("%s", p ? ", " : "");
            pni_json_string(stdout, pn_net_place(net, p)->id, 0);
            printf(": ");
            jnum(r->mean_tokens[p]);
        }
        printf("}");
    }
    if (r->kind == PN_GSPN_ABSORBING) {
        printf(", \"dead\": %zu, \"mtta\": ", r->dead);
        if (r->mtta_known)
            jnum(r->mtta);
        else
            printf("null");
        printf(", \"dead_markings\": [");
        for (size_t d = 0; r->mtta_known && d < r->dead; d++) {
            printf("%s{\"probability\": ", d ? ", " : "");
            jnum(r->dead_probability[d]);
            printf(", \"marking\": {");
            int any = 0;
            for (size_t p = 0; p < r->places; p++) {
                uint64_t v = r->dead_marking[d * r->places + p];
                if (!v)
                    continue;
                printf("%s", any++ ? ", " : "");
                pni_json_string(stdout, pn_net_place(net, p)->id, 0);
                printf(": %" PRIu64, v);
            }
            printf("}}");
        }
        printf("]");
    }
    if (r->ntimes)
        json_transient(net, r);
    printf("}\n");
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        CLI_LONGOPT_FORMAT,
        {"max-states", required_argument, NULL, OPT_MAX_STATES},
        {"direct-max", required_argument, NULL, OPT_DIRECT_MAX},
        {"max-iter", required_argument, NULL, OPT_MAX_ITER},
        {"net", required_argument, NULL, OPT_NET},
        {"time", required_argument, NULL, OPT_TIME},
        {"epsilon", required_argument, NULL, OPT_EPSILON},
        {"tolerance", required_argument, NULL, OPT_TOLERANCE},
        CLI_LONGOPTS_COMMON};
    cli_init(prog, argc, argv);
    cli_common_t cc = {.prog = prog, .usage = usage,
                       .formats = CLI_FMT(CLI_TEXT) | CLI_FMT(CLI_JSON),
                       .format = CLI_TEXT};
    pn_read_options_t ro = {0};
    uint64_t ms = PN_GSPN_MAX_STATES, dm = PN_GSPN_DIRECT_MAX, mi = 100000;
    double *times = NULL, eps = 0, tol = 0;
    size_t ntimes = 0;
    int c, rc;
    while ((c = getopt_long(argc, argv, "f:qhV", longopts, NULL)) != -1) {
        rc = -1;
        if (c == OPT_MAX_STATES) {
            if (cli_uint("--max-states", optarg, 1, SIZE_MAX / 2, &ms))
                return CLI_EUSAGE;
        } else if (c == OPT_DIRECT_MAX) {
            if (cli_uint("--direct-max", optarg, 1, SIZE_MAX / 2, &dm))
                return CLI_EUSAGE;
        } else if (c == OPT_MAX_ITER) {
            if (cli_uint("--max-iter", optarg, 1, SIZE_MAX / 2, &mi))
                return CLI_EUSAGE;
        } else if (c == OPT_TIME) {
            if (parse_times(optarg, &times, &ntimes)) {
                free(times);
                return CLI_EUSAGE;
            }
        } else if (c == OPT_EPSILON) {
            if (cli_real("--epsilon", optarg, 1e-300, 0.5, &eps)) {
                free(times);
                return CLI_EUSAGE;
            }
        } else if (c == OPT_TOLERANCE) {
            if (cli_real("--tolerance", optarg, 1e-300, 1, &tol)) {
                free(times);
                return CLI_EUSAGE;
            }
        } else if (c == OPT_NET)
            ro.net_id = optarg;
        else
            rc = cli_option(&cc, c, optarg);
        if (rc >= 0) {
            free(times);
            return rc;
        }
    }
    const char *path = cli_one_file(prog, argc, argv, optind);
    pn_net_t *net = NULL;
    if (!path || (rc = cli_read_net(prog, path, &ro, &net)) != CLI_OK) {
        free(times);
        return path ? rc : CLI_EUSAGE;
    }
    pn_gspn_options_t o = {.max_states = (size_t)ms,
                           .direct_max = (size_t)dm,
                           .max_iter = (size_t)mi,
                           .tolerance = tol,
                           .times = times,
                           .ntimes = ntimes,
                           .epsilon = eps};
    pn_gspn_result_t *r;
    pn_error_t err;
    rc = pn_gspn_solve(net, &o, &r, &err);
    free(times);
    if (rc) {
        cli_error(prog, &err);
        pn_net_free(net);
        return CLI_EINPUT;
    }
    if (cc.format == CLI_JSON)
        json_report(net, r, cli_input_name(path));
    else {
        text_report(net, r, cli_input_name(path));
        if (r->ntimes)
            text_transient(net, r);
    }
    rc = r->kind == PN_GSPN_MULTIPLE || !r->converged ? 4 : CLI_OK;
    pn_gspn_result_free(r);
    pn_net_free(net);
    return rc; /* standard output is checked at exit (cli_init()) */
}
