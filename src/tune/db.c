/* db.c: the tuning database. Entries are lines of text, so a user can read, edit, copy and share
 * them, and adding a device never needs a rebuild:
 *
 *     tessel-tuning 1
 *     # selector          op    precision class  configuration                      notes
 *     device=nvidia_h200  gemm  single    large  tiled2d:MWG=128,NWG=128,...       gflops=28270
 *
 * The selector says which devices an entry is for, from the most to the least specific:
 * device=<normalized name>, arch=<sm_90 | LLVM CPU name>, vendor=<nvidia|amd|intel|...>,
 * type=<gpu|cpu|accel>, default. Two sources are read: the shipped defaults (defaults.tuning,
 * embedded at build time) and the user's file for this device and driver,
 * <tuning dir>/<device>@<driver>.tuning, where `tessel tune` writes (tuning dir: $TESSEL_TUNING_DIR,
 * else <kernel cache dir>/tuning). A lookup takes the user's entry first, then the shipped ones
 * level by level; within a level an exact precision and size class beat "any". A file that is
 * corrupt or of another format version is skipped as a whole, with a warning (tsl_context_warning),
 * never an error: tuning only ever makes things faster. Stores rewrite the user file through a
 * temporary name and a rename, so a reader never sees half a file. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ops/ops.h"
#include "runtime/runtime.h"
#include "tune/tune.h"

enum { LEVEL_USER, LEVEL_DEVICE, LEVEL_ARCH, LEVEL_VENDOR, LEVEL_TYPE, LEVEL_DEFAULT, NLEVELS };

typedef struct {
    int level;
    char op[16];
    int precision; /* 32, 64, 0 = any */
    char cls[16];  /* "small", ..., "any" */
    char config[256];
    char notes[256]; /* the rest of the line */
    char source[320];
} entry;

struct tsl__tuning_db {
    entry *e;
    int n, cap;
    tsl__device_keys keys;
    char user_path[1300];
};

/* ---- small text helpers ---------------------------------------------------------------------- */

/* Lower case, every run of other characters one '_', no '_' at either end. */
static void normalize(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    int pending = 0;
    for (const char *p = in; *p && n + 1 < cap; ++p) {
        char c = *p;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (pending && n > 0 && n + 2 < cap) out[n++] = '_';
            pending = 0;
            out[n++] = c;
        } else {
            pending = 1;
        }
    }
    out[n] = '\0';
}

void tsl__device_keys_of(const tsl_context *ctx, tsl__device_keys *k)
{
    normalize(ctx->info.name, k->device, sizeof k->device);
    normalize(ctx->info.driver_version, k->driver, sizeof k->driver);
    char arch[64];
    tsl__device_arch(ctx, arch, sizeof arch);
    normalize(arch, k->arch, sizeof k->arch);
    char vendor[64];
    normalize(ctx->info.vendor, vendor, sizeof vendor);
    const char *v = vendor;
    if (strstr(vendor, "nvidia")) v = "nvidia";
    else if (strstr(vendor, "advanced_micro") || strstr(vendor, "amd")) v = "amd";
    else if (strstr(vendor, "intel")) v = "intel";
    snprintf(k->vendor, sizeof k->vendor, "%s", v);
    snprintf(k->type, sizeof k->type, "%s", ctx->info.type);
}

void tsl__warn(tsl_context *ctx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t used = strlen(ctx->warning);
    if (used + 3 >= sizeof ctx->warning) return;
    snprintf(ctx->warning + used, sizeof ctx->warning - used, "%s%s", used ? "; " : "", msg);
}

const char *tsl_context_warning(const tsl_context *ctx)
{
    return ctx ? ctx->warning : "";
}

/* ---- parsing ----------------------------------------------------------------------------------- */

static int valid_name(const char *s)
{
    if (!*s) return 0;
    for (; *s; ++s)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
    return 1;
}

static int parse_precision(const char *s)
{
    if (strcmp(s, "single") == 0) return 32;
    if (strcmp(s, "double") == 0) return 64;
    if (strcmp(s, "any") == 0) return 0;
    return -1;
}

static int valid_class(const char *s)
{
    return strcmp(s, "small") == 0 || strcmp(s, "skinny") == 0 || strcmp(s, "large") == 0 ||
           strcmp(s, "any") == 0;
}

/* The level at which the selector applies to this device, or -1 when it is for another device, or
 * -2 when it is malformed. */
static int selector_level(const char *sel, const tsl__device_keys *k)
{
    if (strcmp(sel, "default") == 0) return LEVEL_DEFAULT;
    const char *eq = strchr(sel, '=');
    if (!eq || !valid_name(eq + 1)) return -2;
    size_t n = (size_t)(eq - sel);
    static const struct {
        const char *key;
        int level;
    } kinds[] = {{"device", LEVEL_DEVICE},
                 {"arch", LEVEL_ARCH},
                 {"vendor", LEVEL_VENDOR},
                 {"type", LEVEL_TYPE}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
        if (strlen(kinds[i].key) != n || strncmp(sel, kinds[i].key, n) != 0) continue;
        const char *mine = kinds[i].level == LEVEL_DEVICE ? k->device
                           : kinds[i].level == LEVEL_ARCH ? k->arch
                           : kinds[i].level == LEVEL_VENDOR ? k->vendor
                                                            : k->type;
        return (*mine && strcmp(eq + 1, mine) == 0) ? kinds[i].level : -1;
    }
    return -2;
}

static int add_entry(struct tsl__tuning_db *db, const entry *e)
{
    if (db->n == db->cap) {
        int cap = db->cap ? 2 * db->cap : 16;
        entry *ne = tsl__malloc((size_t)cap * sizeof *ne);
        if (!ne) return -1;
        if (db->n) memcpy(ne, db->e, (size_t)db->n * sizeof *ne);
        tsl__free(db->e);
        db->e = ne;
        db->cap = cap;
    }
    db->e[db->n++] = *e;
    return 0;
}

/* Parses one source's text. The entries that apply to this device are added (user_file: device
 * entries count as the user level); on any error nothing is added and *why says where. */
static int parse_text(struct tsl__tuning_db *db, const char *text, const char *name, int user_file,
                      char *why, size_t cap)
{
    int start = db->n, header = 0, lineno = 0;
    const char *p = text;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        ++lineno;
        char line[1024];
        if (len >= sizeof line) {
            snprintf(why, cap, "%s:%d: line longer than %zu characters", name, lineno,
                     sizeof line - 1);
            goto bad;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        p = eol ? eol + 1 : p + len;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *tok[6], *save = NULL;
        int nt = 0;
        for (char *t = strtok_r(line, " \t\r", &save); t && nt < 6; t = strtok_r(NULL, " \t\r", &save))
            tok[nt++] = t;
        if (nt == 0) continue;
        if (!header) {
            if (nt != 2 || strcmp(tok[0], "tessel-tuning") != 0) {
                snprintf(why, cap, "%s:%d: not a tessel tuning database (no 'tessel-tuning %d' line)",
                         name, lineno, TSL__TUNING_VERSION);
                goto bad;
            }
            if (strcmp(tok[1], "1") != 0) {
                snprintf(why, cap, "%s: format version %.16s, this tessel reads version %d", name,
                         tok[1], TSL__TUNING_VERSION);
                goto bad;
            }
            header = 1;
            continue;
        }
        if (nt < 5) {
            snprintf(why, cap, "%s:%d: an entry needs selector, op, precision, class, configuration",
                     name, lineno);
            goto bad;
        }
        entry e;
        memset(&e, 0, sizeof e);
        int level = selector_level(tok[0], &db->keys);
        e.precision = parse_precision(tok[2]);
        if (level == -2 || !valid_name(tok[1]) || strlen(tok[1]) >= sizeof e.op ||
            e.precision < 0 || !valid_class(tok[3]) || strlen(tok[4]) >= sizeof e.config) {
            snprintf(why, cap, "%s:%d: malformed entry '%s %s %s %s'", name, lineno, tok[0],
                     tok[1], tok[2], tok[3]);
            goto bad;
        }
        if (level < 0) continue; /* for another device */
        if (user_file && level != LEVEL_DEVICE) continue;
        e.level = user_file ? LEVEL_USER : level;
        snprintf(e.op, sizeof e.op, "%s", tok[1]);
        snprintf(e.cls, sizeof e.cls, "%s", tok[3]);
        snprintf(e.config, sizeof e.config, "%s", tok[4]);
        if (nt == 6) snprintf(e.notes, sizeof e.notes, "%s", tok[5]);
        if (user_file)
            snprintf(e.source, sizeof e.source, "user database %.280s:%d", name, lineno);
        else
            snprintf(e.source, sizeof e.source, "shipped defaults, %s entry",
                     level == LEVEL_DEFAULT ? "default" : tok[0]);
        if (add_entry(db, &e) != 0) {
            snprintf(why, cap, "%s: out of host memory", name);
            goto bad;
        }
    }
    if (!header) {
        snprintf(why, cap, "%s: empty file (no 'tessel-tuning %d' line)", name, TSL__TUNING_VERSION);
        goto bad;
    }
    return 0;
bad:
    db->n = start;
    return -1;
}

/* Reads a whole small file; NULL when it cannot be read (errno) or is over 1 MiB. */
static char *read_file(const char *path, int *too_big)
{
    *too_big = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = tsl__malloc((1u << 20) + 1);
    size_t n = buf ? fread(buf, 1, 1u << 20, f) : 0;
    int more = buf && fgetc(f) != EOF;
    fclose(f);
    if (!buf) return NULL;
    if (more) {
        *too_big = 1;
        tsl__free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n)) { /* binary garbage */
        buf[0] = '\1';
        buf[1] = '\0';
    }
    return buf;
}

static void user_path(const tsl_context *ctx, const tsl__device_keys *k, char *out, size_t cap)
{
    const char *env = getenv("TESSEL_TUNING_DIR");
    out[0] = '\0';
    if (env && *env)
        snprintf(out, cap, "%s/%s@%s.tuning", env, k->device, k->driver[0] ? k->driver : "any");
    else if (ctx->cache_dir[0])
        snprintf(out, cap, "%s/tuning/%s@%s.tuning", ctx->cache_dir, k->device,
                 k->driver[0] ? k->driver : "any");
}

void tsl__tuning_free(tsl_context *ctx)
{
    if (!ctx->tuning) return;
    tsl__free(ctx->tuning->e);
    tsl__free(ctx->tuning);
    ctx->tuning = NULL;
}

void tsl__tuning_load(tsl_context *ctx)
{
    tsl__tuning_free(ctx);
    struct tsl__tuning_db *db = tsl__calloc(1, sizeof *db);
    if (!db) return; /* no database: the built-in defaults serve */
    tsl__device_keys_of(ctx, &db->keys);
    user_path(ctx, &db->keys, db->user_path, sizeof db->user_path);
    ctx->tuning = db;
    char why[600];
    size_t len;
    const char *shipped = tsl__kernel_source("defaults.tuning", &len);
    if (shipped && parse_text(db, shipped, "defaults.tuning", 0, why, sizeof why) != 0)
        tsl__warn(ctx, "shipped tuning defaults ignored: %s", why);
    if (!db->user_path[0]) return;
    int too_big;
    char *text = read_file(db->user_path, &too_big);
    if (!text) {
        if (too_big || errno != ENOENT)
            tsl__warn(ctx, "tuning database %s ignored: %s", db->user_path,
                      too_big ? "larger than 1 MiB" : strerror(errno));
        return;
    }
    if (parse_text(db, text, db->user_path, 1, why, sizeof why) != 0)
        tsl__warn(ctx, "tuning database ignored: %s", why);
    tsl__free(text);
}

const char *tsl__tuning_find(const tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const char **source)
{
    const struct tsl__tuning_db *db = ctx->tuning;
    if (!db) return NULL;
    const entry *best = NULL;
    int best_rank = 1 << 30;
    for (int i = 0; i < db->n; ++i) {
        const entry *e = &db->e[i];
        if (strcmp(e->op, op) != 0) continue;
        if (e->precision && e->precision != (dbl ? 64 : 32)) continue;
        if (strcmp(e->cls, "any") != 0 && strcmp(e->cls, cls) != 0) continue;
        /* level first; within a level exact class, then exact precision; then the later line */
        int rank = e->level * 4 + (strcmp(e->cls, "any") == 0) * 2 + (e->precision == 0);
        if (rank <= best_rank) {
            best_rank = rank;
            best = e;
        }
    }
    if (best && source) *source = best->source;
    return best ? best->config : NULL;
}

/* ---- the public calls ------------------------------------------------------------------------ */

static const tsl__op_desc *tunable_op(tsl_context *ctx, const char *fn, const char *op)
{
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d) {
        tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: unknown operation '%s'", fn, op ? op : "(null)");
        return NULL;
    }
    return d;
}

const char *tsl_tuning_class(const char *op, size_t m, size_t n, size_t k)
{
    const tsl__op_desc *d = tsl__find_op(op);
    return d && d->size_class ? d->size_class(m, n, k) : "any";
}

tsl_status tsl_tuning_lookup(tsl_context *ctx, const char *op, int is_double, size_t m, size_t n,
                             size_t k, const char **config, const char **source)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    if (!config || !source)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_tuning_lookup: config or source is NULL");
    const tsl__op_desc *d = tunable_op(ctx, "tsl_tuning_lookup", op);
    if (!d) return TSL_ERR_INVALID_ARG;
    *config = tsl__tuning_find(ctx, op, is_double, tsl_tuning_class(op, m, n, k), source);
    if (!*config) {
        *config = "";
        *source = "no entry: the built-in default";
    }
    return TSL_OK;
}

const char *tsl_tuning_file(const tsl_context *ctx)
{
    return ctx && ctx->tuning ? ctx->tuning->user_path : "";
}

/* The user file's lines minus the entry being replaced (same selector, op, precision, class). */
static int keep_line(const char *line, const char *sel, const char *op, const char *prec,
                     const char *cls)
{
    char buf[1024], *tok[4], *save = NULL;
    snprintf(buf, sizeof buf, "%s", line);
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    int nt = 0;
    for (char *t = strtok_r(buf, " \t\r", &save); t && nt < 4; t = strtok_r(NULL, " \t\r", &save))
        tok[nt++] = t;
    if (nt == 0) return 1;
    if (strcmp(tok[0], "tessel-tuning") == 0) return 0; /* written again first */
    return !(nt == 4 && strcmp(tok[0], sel) == 0 && strcmp(tok[1], op) == 0 &&
             strcmp(tok[2], prec) == 0 && strcmp(tok[3], cls) == 0);
}

tsl_status tsl_tuning_store(tsl_context *ctx, const char *op, int is_double, size_t m, size_t n,
                            size_t k, const char *config, const char *note)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    const tsl__op_desc *d = tunable_op(ctx, "tsl_tuning_store", op);
    if (!d) return TSL_ERR_INVALID_ARG;
    if (!config || !*config || strlen(config) >= 256 || strpbrk(config, " \t\r\n#"))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_tuning_store: config must be one word of under 256 characters");
    if (note && (strlen(note) >= 200 || strpbrk(note, " \t\r\n#")))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_tuning_store: note must be one word (key=value,...) under 200 "
                         "characters");
    /* The configuration must be one the op accepts on this device. */
    tsl_status s = d->variant_check(ctx, config, NULL);
    if (s != TSL_OK) return s;
    if (!ctx->tuning || !ctx->tuning->user_path[0])
        return tsl__fail(ctx, TSL_ERR_IO,
                         "tsl_tuning_store: no usable tuning directory (set TESSEL_TUNING_DIR or "
                         "TESSEL_CACHE_DIR to a writable folder)");
    const char *path = ctx->tuning->user_path;
    char dir[1300];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    if (slash && tsl__make_dirs(dir) != 0)
        return tsl__fail(ctx, TSL_ERR_IO, "tsl_tuning_store: cannot create %s: %s", dir,
                         strerror(errno));
    char sel[160];
    snprintf(sel, sizeof sel, "device=%s", ctx->tuning->keys.device);
    const char *prec = is_double ? "double" : "single";
    const char *cls = tsl_tuning_class(op, m, n, k);
    /* Keep the other entries of a readable file; a corrupt one is replaced. */
    int too_big;
    char *old = read_file(path, &too_big);
    struct tsl__tuning_db probe;
    memset(&probe, 0, sizeof probe);
    probe.keys = ctx->tuning->keys;
    char why[600];
    if (old && parse_text(&probe, old, path, 1, why, sizeof why) != 0) {
        tsl__free(old);
        old = NULL;
    }
    tsl__free(probe.e);
    char tmp[1400];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    tsl_temporary_add(tmp); /* before it exists: an interrupted program's handler removes it */
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        tsl_temporary_drop(tmp);
        return tsl__fail(ctx, TSL_ERR_IO, "tsl_tuning_store: cannot write %s: %s", tmp,
                         strerror(e));
    }
    fprintf(f, "tessel-tuning %d\n", TSL__TUNING_VERSION);
    if (!old)
        fprintf(f, "# tuning results of tessel %s for %s (driver %s); written by `tessel tune`\n",
                tsl_version(), ctx->info.name, ctx->info.driver_version);
    for (const char *p = old; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
        if (keep_line(line, sel, op, prec, cls)) fprintf(f, "%s\n", line);
        p = eol ? eol + 1 : p + len;
    }
    tsl__free(old);
    char date[32] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%d", &tm);
    fprintf(f, "%s %s %s %s %s %s%sdate=%s\n", sel, op, prec, cls, config, note ? note : "",
            note && *note ? "," : "", date);
    int bad = ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        tsl_temporary_drop(tmp);
        return tsl__fail(ctx, TSL_ERR_IO, "tsl_tuning_store: cannot write %s: %s", path, strerror(e));
    }
    tsl_temporary_drop(tmp);
    tsl__tuning_load(ctx);
    return TSL_OK;
}
