/* measure.c: the measuring skeleton shared by the measuring subcommands (see measure.h): opening
 * and closing a session, --precision and --variant handling, the variant check on the device, the
 * timed loop, the copy reference row and the common handling of a peer's result. The error lines
 * and exit codes here are those of docs/design.md ("Exit codes"), the same for every command. */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "peer_openblas.h"

/* ---- the session ----------------------------------------------------------------------------- */

int cli_session_open(cli_session *s, const char *csv, const char *json, int quiet,
                     const char *columns, const char *spec, int need_fp64)
{
    int rc = 0;
    s->title[0] = '\0';
    cli_command_line(cli_argc, cli_argv, s->command_line, sizeof s->command_line);
    cli_report_opts ro = {csv, json, quiet, columns, s->title, s->command_line};
    /* Output paths are checked before the (slow) device work; nothing is printed yet. */
    s->rep = cli_report_open(&ro, &rc);
    if (!s->rep) return rc;
    tsl_status st = tsl_context_create(spec, &s->ctx);
    if (st != TSL_OK) {
        cli_report_close(s->rep, 0);
        return cli_device_error(st, spec);
    }
    cli_context_warnings(s->ctx);
    if ((st = tsl_context_device(s->ctx, &s->dev)) != TSL_OK)
        rc = cli_error(CLI_EXIT_RUNTIME, "cannot query the device: %s (%s)",
                       tsl_context_error(s->ctx), tsl_status_name(st));
    else if (need_fp64 && !s->dev.fp64)
        rc = cli_error(CLI_EXIT_RUNTIME,
                       "device %s (%d:%d) has no double precision (cl_khr_fp64): use --precision "
                       "single or another --device",
                       s->dev.name, s->dev.platform_index, s->dev.device_index);
    return rc ? cli_session_abort(s, rc) : 0;
}

void cli_context_warnings(const tsl_context *ctx)
{
    static char shown[1024];
    const char *w = tsl_context_warning(ctx);
    if (!*w || strcmp(w, shown) == 0) return;
    /* the warnings accumulate: print only what was added since the last call */
    const char *fresh = strncmp(w, shown, strlen(shown)) == 0 ? w + strlen(shown) : w;
    if (*fresh == ';') fresh += 2;
    cli_progress_clear();
    if (*fresh) fprintf(stderr, "tessel: warning: %s\n", fresh);
    snprintf(shown, sizeof shown, "%s", w);
}

int cli_session_abort(cli_session *s, int rc)
{
    cli_report_close(s->rep, 0);
    tsl_context_destroy(s->ctx);
    return rc;
}

int cli_session_close(cli_session *s)
{
    cli_progress_clear();
    int rc = cli_report_close(s->rep, 1);
    cli_context_warnings(s->ctx);
    tsl_context_destroy(s->ctx);
    if (rc || s->any_error) return CLI_EXIT_RUNTIME;
    return s->any_failed ? CLI_EXIT_VERIFY : CLI_EXIT_OK;
}

void cli_row_start(const cli_session *s, const char *op, const char *variant, cli_row *row)
{
    cli_row_init(row);
    row->op = op;
    row->variant = variant;
    row->device = s->dev.name;
    row->repeat = (long long)s->repeat;
    row->status = "error";
}

/* ---- options --------------------------------------------------------------------------------- */

int cli_parse_choice(const char *cmd, const char *opt, const char *text, const char *a,
                     const char *b, int va, int vb, int *out)
{
    if (strcmp(text, a) == 0) return *out = va, 0;
    if (strcmp(text, b) == 0) return *out = vb, 0;
    return cli_error(CLI_EXIT_USAGE, "%s: %s expects %s or %s, got '%s'", cmd, opt, a, b, text);
}

int cli_parse_precision(const char *cmd, const char *text, int *is_double, size_t *es)
{
    if (strcmp(text, "single") == 0)
        *is_double = 0;
    else if (strcmp(text, "double") == 0)
        *is_double = 1;
    else if (strcmp(text, "half") == 0 || strcmp(text, "bfloat16") == 0)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: --precision expects single or double, got '%s' (16-bit storage is "
                         "gemm's only: tessel gemm --precision %s)",
                         cmd, text, text);
    else
        return cli_error(CLI_EXIT_USAGE, "%s: --precision expects single or double, got '%s'", cmd,
                         text);
    *es = *is_double ? sizeof(double) : sizeof(float);
    return 0;
}

int cli_parse_precision_half(const char *cmd, const char *text, tsl_precision *prec, size_t *es)
{
    if (strcmp(text, "single") == 0)
        *prec = TSL_SINGLE;
    else if (strcmp(text, "double") == 0)
        *prec = TSL_DOUBLE;
    else if (strcmp(text, "half") == 0)
        *prec = TSL_HALF;
    else if (strcmp(text, "bfloat16") == 0)
        *prec = TSL_BFLOAT16;
    else
        return cli_error(CLI_EXIT_USAGE,
                         "%s: --precision expects single, double, half or bfloat16, got '%s'", cmd,
                         text);
    *es = cli_elem_size(*prec);
    return 0;
}

void cli_help_options(const cli_option *opts, size_t nopts, const char *op)
{
    cli_print_options(stdout, opts, nopts);
    if (!op) return;
    char names[1024];
    cli_variant_names(op, names, sizeof names);
    printf("\nVariants:\n  ");
    cli_print_wrapped(stdout, names, 2);
}

int cli_read_options(const char *cmd, int argc, char **argv, const cli_option *opts, size_t nopts,
                     void (*help)(const cli_option *opts, size_t nopts))
{
    if (cli_wants_help(argc, argv)) {
        help(opts, nopts);
        return CLI_EXIT_OK;
    }
    int rc = cli_parse(cmd, argc, argv, opts, nopts);
    return rc ? rc : -1;
}

int cli_sizes(const char *cmd, const char *one_opt, size_t size, cli_size_list *sizes, size_t def)
{
    if (size && sizes->n)
        return cli_error(CLI_EXIT_USAGE, "%s: give %s or --sizes, not both", cmd, one_opt);
    if (sizes->n == 0) sizes->v[sizes->n++] = size ? size : def;
    return 0;
}

int cli_select_peers(const char *cmd, const cli_name_list *names, const char *(*name_at)(size_t),
                     const char **peers, size_t *npeers)
{
    for (size_t i = 0; i < names->n; ++i) {
        const char *p = NULL;
        for (size_t j = 0; !p && name_at(j); ++j)
            if (strcmp(name_at(j), names->v[i]) == 0) p = name_at(j);
        if (!p) {
            char list[256] = "";
            for (size_t j = 0; name_at(j); ++j) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", name_at(j));
            }
            return cli_error(CLI_EXIT_USAGE, "%s: unknown peer '%s' (peers: %s)", cmd, names->v[i],
                             list);
        }
        int dup = 0;
        for (size_t j = 0; j < *npeers; ++j)
            dup |= peers[j] == p;
        if (!dup) peers[(*npeers)++] = p;
    }
    return 0;
}

int cli_check_runs(const char *cmd, size_t repeat, unsigned warmup, unsigned max_runs)
{
    if (repeat > max_runs || warmup > max_runs)
        return cli_error(CLI_EXIT_USAGE, "%s: --repeat and --warmup go up to %u", cmd, max_runs);
    return 0;
}

/* ---- variants -------------------------------------------------------------------------------- */

void cli_variant_names(const char *op, char *buf, size_t cap)
{
    snprintf(buf, cap, "auto");
    for (size_t i = 0; tsl_variant_name(op, i); ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, ", %s", tsl_variant_name(op, i));
    }
}

int cli_list_variants(const char *op)
{
    for (size_t i = 0; tsl_variant_name(op, i); ++i)
        printf("%s\n", tsl_variant_name(op, i));
    return CLI_EXIT_OK;
}

void cli_variants_add(cli_variants *vs, const char *name)
{
    for (size_t i = 0; i < vs->n; ++i)
        if (strcmp(vs->name[i], name) == 0) return;
    if (vs->n < CLI_MAX_VARIANTS) vs->name[vs->n++] = name;
}

int cli_variants_select(cli_variants *vs, const char *op, const char *arg, const char *cmd,
                        int name_op)
{
    vs->op = op;
    vs->prec = TSL_SINGLE; /* a command with half or double kernels of their own sets it after */
    vs->all = strcmp(arg, "all") == 0;
    if (vs->all) {
        for (size_t i = 0; tsl_variant_name(op, i); ++i)
            cli_variants_add(vs, tsl_variant_name(op, i));
        return 0;
    }
    /* "tiled2d:MWG=64,..." names a configuration: the library checks it (cli_variants_check) */
    int known = strcmp(arg, "auto") == 0 || strchr(arg, ':') != NULL;
    for (size_t i = 0; !known && tsl_variant_name(op, i); ++i)
        known = strcmp(tsl_variant_name(op, i), arg) == 0;
    if (!known) {
        char names[1024];
        cli_variant_names(op, names, sizeof names);
        return cli_error(CLI_EXIT_USAGE,
                         "%s: unknown %s%svariant '%s' (variants: %s; or all, list)", cmd,
                         name_op ? op : "", name_op ? " " : "", arg, names);
    }
    cli_variants_add(vs, arg);
    return 0;
}

int cli_variants_check(cli_variants *vs, cli_session *s, const char *cmd)
{
    for (size_t i = 0; i < vs->n; ++i) {
        const char *resolved = NULL;
        tsl_status st =
            tsl_variant_check_precision(s->ctx, vs->op, vs->name[i], vs->prec, &resolved);
        vs->ok[i] = st == TSL_OK;
        tsl_timing ct;
        vs->check_build_ms[i] = tsl_context_timing(s->ctx, &ct) == TSL_OK ? ct.build_ms : 0.0;
        if (st == TSL_OK && strcmp(vs->name[i], "auto") == 0) vs->auto_resolved = resolved;
        if (st == TSL_OK) continue;
        if (vs->all && st == TSL_ERR_UNSUPPORTED)
            cli_note("variant %s skipped: %s", vs->name[i], tsl_context_error(s->ctx));
        else if (st == TSL_ERR_INVALID_ARG)
            return cli_error(CLI_EXIT_USAGE, "%s: %s", cmd, tsl_context_error(s->ctx));
        else
            return cli_error(CLI_EXIT_RUNTIME, "%s: variant %s cannot run on %s: %s (%s)", cmd,
                             vs->name[i], s->dev.name, tsl_context_error(s->ctx),
                             tsl_status_name(st));
    }
    return 0;
}

int cli_variant_row(cli_session *s, const cli_variants *vs, size_t vi, cli_row *row)
{
    if (strcmp(vs->name[vi], "auto") == 0 && vs->auto_resolved) row->resolved = vs->auto_resolved;
    if (vs->ok[vi]) return 1;
    row->status = "skipped";
    cli_report_row(s->rep, row);
    return 0;
}

int cli_variant_skip(cli_session *s, const cli_variants *vs, tsl_status st, const char *v,
                     cli_row *row)
{
    if (st != TSL_ERR_UNSUPPORTED || !vs->all) return 0;
    /* The device compiled the kernel but cannot run it here (e.g. its registers allow a smaller
     * work-group than the variant needs): under --variant all that is a skip. */
    cli_note("variant %s skipped: %s", v, tsl_context_error(s->ctx));
    row->status = "skipped";
    cli_report_row(s->rep, row);
    return 1;
}

void cli_status_text(const cli_session *s, tsl_status st, char *msg, size_t cap)
{
    snprintf(msg, cap, "%s (%s)", tsl_context_error(s->ctx), tsl_status_name(st));
}

/* ---- timing ---------------------------------------------------------------------------------- */

tsl_status cli_time_runs(cli_session *s, cli_call_fn call, void *arg, double *times, cli_row *row,
                         double build_base, tsl_timing *last)
{
    tsl_timing t = {0, 0, 0, 0};
    tsl_status st = TSL_OK;
    unsigned runs = s->warmup + (unsigned)s->repeat;
    for (unsigned r = 0; st == TSL_OK && r < runs; ++r) {
        double ms = -1.0;
        st = call(arg, r, &ms);
        if (st == TSL_OK) st = tsl_context_timing(s->ctx, &t);
        if (st != TSL_OK) break;
        if (r == 0 && row) row->build_ms = build_base + t.build_ms;
        if (r >= s->warmup) times[r - s->warmup] = ms >= 0 ? ms : t.kernel_ms;
    }
    if (last) *last = t;
    return st;
}

tsl_status cli_read_back(cli_session *s, tsl_buffer *buf, size_t bytes, void *host, cli_row *row)
{
    tsl_timing t;
    tsl_status st = tsl_buffer_read(s->ctx, buf, 0, bytes, host);
    if (st == TSL_OK && tsl_context_timing(s->ctx, &t) == TSL_OK) row->download_ms = t.download_ms;
    return st;
}

/* ---- the copy row ---------------------------------------------------------------------------- */

typedef struct {
    cli_session *s;
    tsl_buffer *src, *dst;
    size_t bytes;
} copy_call;

static tsl_status call_copy(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    copy_call *c = arg;
    return tsl_copy_buf(c->s->ctx, c->src, c->dst, c->bytes);
}

tsl_status cli_copy_row(cli_session *s, const cli_copy_opts *o, double *times, cli_row *row)
{
    copy_call c = {s, NULL, NULL, o->bytes};
    size_t es = o->is_double ? sizeof(double) : sizeof(float);
    tsl_timing t = {0, 0, 0, 0};
    void *host = NULL;
    tsl_status st = tsl_buffer_create(s->ctx, c.bytes, &c.src);
    if (st == TSL_OK) st = tsl_buffer_create(s->ctx, c.bytes, &c.dst);
    /* The source always holds data, uploaded before the copies: a copy of a new buffer reads
     * memory nothing wrote (Oclgrind's --uninitialized reports it); only with fill does the row
     * report the upload. */
    if (st == TSL_OK) {
        host = malloc(c.bytes);
        if (!host) st = TSL_ERR_OUT_OF_MEMORY;
    }
    if (st == TSL_OK) {
        unsigned long long state = o->fill ? o->seed : 42;
        cli_fill_random(o->is_double, host, c.bytes / es, &state);
        st = tsl_buffer_write(s->ctx, c.src, 0, c.bytes, host);
        if (st == TSL_OK && o->fill && tsl_context_timing(s->ctx, &t) == TSL_OK)
            row->upload_ms = t.upload_ms;
    }
    if (st == TSL_OK && o->build_first) {
        st = call_copy(&c, 0, NULL); /* also builds the kernel */
        if (st == TSL_OK && tsl_context_timing(s->ctx, &t) == TSL_OK) row->build_ms = t.build_ms;
    }
    if (st == TSL_OK)
        st = cli_time_runs(s, call_copy, &c, times, o->build_first ? NULL : row, 0.0, NULL);
    if (st == TSL_OK && o->verify) {
        void *back = malloc(c.bytes);
        if (!back)
            st = TSL_ERR_OUT_OF_MEMORY;
        else
            st = cli_read_back(s, c.dst, c.bytes, back, row);
        if (st == TSL_OK) row->max_rel_err = memcmp(back, host, c.bytes) == 0 ? 0.0 : 1.0;
        free(back);
    }
    if (st == TSL_OK) {
        double ms = cli_median(times, s->repeat);
        row->kernel_ms = ms;
        if (ms > 0) row->gbps = 2.0 * (double)c.bytes / (ms * 1e6);
        row->status = "ok";
        if (o->verify && row->max_rel_err != 0.0) row->status = "verify_failed", s->any_failed = 1;
    }
    free(host);
    tsl_buffer_destroy(c.src);
    tsl_buffer_destroy(c.dst);
    return st;
}

/* ---- peers ----------------------------------------------------------------------------------- */

/* The note of a process the command re-executed with OPENBLAS_CORETYPE set (cli/main.c), once,
 * when its first OpenBLAS row is reported. */
static void note_openblas_core(const char *name)
{
    static int noted;
    const char *core = getenv("OPENBLAS_CORETYPE"), *seen = getenv(TSL_OPENBLAS_DETECTED_ENV);
    if (noted || strcmp(name, "openblas") != 0 || !core || !seen) return;
    noted = 1;
    cli_note("OpenBLAS detected %s on this CPU; using OPENBLAS_CORETYPE=%s (set OPENBLAS_CORETYPE "
             "to override)",
             seen, core);
}

int cli_peer_row(const tsl_peer_result *res, const char *name, int *noted, cli_row *row)
{
    note_openblas_core(name);
    if (res->device[0]) row->device = res->device;
    if (res->status == TSL_PEER_SKIPPED) {
        if (!*noted) cli_note("peer %s skipped: %s", name, res->reason);
        *noted = 1;
        row->status = "skipped";
        return 0;
    }
    if (res->status == TSL_PEER_ERROR) {
        row->status = "error";
        return -1;
    }
    row->build_ms = res->build_ms;
    row->upload_ms = res->upload_ms;
    row->download_ms = res->download_ms;
    return 1;
}
