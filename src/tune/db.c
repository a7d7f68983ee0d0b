/* db.c: the tuning database. Entries are lines of text, so a user can read, edit, copy and share
 * them, and adding a device never needs a rebuild:
 *
 *     tessel-tuning 2
 *     # selector          op    precision class  configuration                      notes
 *     device=h200         gemm  single    large  tiled2d:MWG=128,NWG=128,...       gflops=28270
 *
 * The selector says which devices an entry is for, from the most to the least specific:
 * device=<normalized name>, arch=<sm_90 | gfx90 | LLVM CPU name>, vendor=<nvidia|amd|intel|
 * pocl|...>, type=<gpu|cpu|accel>, default (keys.c makes this device's keys). The notes are one
 * word of key=value pairs, read by people, except one: measured=MxNxK+... limits the entry to
 * the problems near those shapes (tsl__shape_near), as `tessel tune` writes them; an entry
 * without it is for its whole class.
 * Version 2 added that key: version-1 files (which have none) are read as before, and an older
 * tessel skips a version-2 file with a warning rather than apply its entries too widely.
 * Two sources are read: the shipped defaults (defaults.tuning, embedded at build time) and the
 * user's file for this device and driver, <tuning dir>/<device>@<driver>.tuning, where `tessel
 * tune` writes (tuning dir: $TESSEL_TUNING_DIR, else <kernel cache dir>/tuning). A lookup takes the
 * user's entries first, then the shipped ones, each source level by level (the most specific
 * selector that has an entry for the op, precision and class wins: CLBlast's device ->
 * architecture -> vendor -> type -> default); within a level an entry for the problem's
 * neighbourhood beats one for its class, an exact size class beats "any", an exact precision
 * beats "any". A file that is corrupt or of another format version is skipped as a
 * whole, with a warning (tsl_context_warning), never an error: tuning only ever makes things
 * faster. Stores rewrite the user file through a temporary name and a rename, so a reader never
 * sees half a file. The entries are loaded on a context's first lookup and kept in its ext slot.
 * This file knows no operation: the ops layer passes the class and the check of a configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/runtime.h"
#include "tune/tune.h"

#define DB_SLOT 0 /* the context's ext slot of the tuning database (runtime.h) */

/* The selector levels, most specific first. An entry's rank level is its selector's, plus NLEVELS
 * for a shipped one: every user entry comes before every shipped one. */
enum { LEVEL_DEVICE, LEVEL_ARCH, LEVEL_VENDOR, LEVEL_TYPE, LEVEL_DEFAULT, NLEVELS };

typedef struct {
    int level;
    char op[16];
    int precision; /* a precision code + 1 (parse_precision), 0 = any */
    char cls[16];  /* "small", ..., "any" */
    char config[256];
    char notes[512]; /* the rest of the line */
    char source[640];
    tsl__shape measured[TSL__MAX_MEASURED]; /* measured=: applies near these; 0: whole class */
    int nmeasured;
} entry;

struct tsl__tuning_db {
    entry *e;
    int n, cap;
    tsl__device_keys keys;
    char user_path[1300];
    char selectors[600]; /* tsl_tuning_selectors */
};

/* ---- parsing ----------------------------------------------------------------------------------- */

static int valid_name(const char *s)
{
    if (!*s) return 0;
    for (; *s; ++s)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
    return 1;
}

/* The precision column's names, in the order of the precision codes of tsl__tuning_find (0
 * single, 1 double, then GEMM's 16-bit storages and single precision in its reduced math modes);
 * an entry keeps code + 1, 0 for "any" (which stands for single and double only: a configuration
 * of theirs cannot run the others). */
static const char *const precision_names[] = {"single", "double",   "half",
                                              "bfloat16", "tf32", "3xtf32"};
#define NPRECISIONS (int)(sizeof precision_names / sizeof precision_names[0])

static int parse_precision(const char *s)
{
    if (strcmp(s, "any") == 0) return 0;
    for (int i = 0; i < NPRECISIONS; ++i)
        if (strcmp(s, precision_names[i]) == 0) return i + 1;
    return -1;
}

static int valid_class(const char *s)
{
    return strcmp(s, "small") == 0 || strcmp(s, "skinny") == 0 || strcmp(s, "large") == 0 ||
           strcmp(s, "few") == 0 || strcmp(s, "any") == 0;
}

int tsl__shapes_parse(const char *text, size_t len, tsl__shape *out, int cap)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        if (n == cap) return -1;
        size_t d[3];
        for (int j = 0; j < 3; ++j) {
            if (j && (i >= len || text[i++] != 'x')) return -1;
            if (i >= len || text[i] < '0' || text[i] > '9') return -1;
            d[j] = 0;
            while (i < len && text[i] >= '0' && text[i] <= '9') {
                d[j] = d[j] * 10 + (size_t)(text[i++] - '0');
                if (d[j] > 2147483647u) return -1;
            }
            if (d[j] == 0) return -1;
        }
        out[n++] = (tsl__shape){d[0], d[1], d[2]};
        if (i < len && text[i++] != '+') return -1;
        if (i == len && text[len - 1] == '+') return -1;
    }
    return n > 0 ? n : -1;
}

/* x within a factor of 2 of s */
static int within2(size_t x, size_t s)
{
    return x <= 2 * s && 2 * x >= s;
}

int tsl__shape_near(const tsl__shape *p, const tsl__shape *s)
{
    return within2(p->m, s->m) && within2(p->n, s->n) && within2(p->k, s->k);
}

/* The value of key=... in a notes word (key=value,key=value): its text and length, or NULL. */
static const char *note_value(const char *notes, const char *key, size_t *len)
{
    size_t kl = strlen(key);
    for (const char *p = notes; p && *p;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if ((size_t)(end - p) > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
            *len = (size_t)(end - p) - kl - 1;
            return p + kl + 1;
        }
        p = *end ? end + 1 : end;
    }
    return NULL;
}

/* The measured= shapes of a notes word into out (*n of them, 0 when it has none): 0, or -1 when
 * malformed. */
static int parse_measured(const char *notes, tsl__shape *out, int *n)
{
    size_t len;
    const char *v = note_value(notes, "measured", &len);
    *n = 0;
    if (!v) return 0;
    int k = tsl__shapes_parse(v, len, out, TSL__MAX_MEASURED);
    if (k < 0) return -1;
    *n = k;
    return 0;
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
        /* the device level also knows the device by its full name (keys.c) */
        int alias = kinds[i].level == LEVEL_DEVICE && *k->device_full &&
                    strcmp(eq + 1, k->device_full) == 0;
        return ((*mine && strcmp(eq + 1, mine) == 0) || alias) ? kinds[i].level : -1;
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

/* Parses one source's text. The entries that apply to this device are added (user_file: ranked
 * ahead of every shipped entry); on any error nothing is added and *why says where. */
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
            if (strcmp(tok[1], "1") != 0 && strcmp(tok[1], "2") != 0) {
                snprintf(why, cap, "%s: format version %.16s, this tessel reads versions 1 to %d",
                         name, tok[1], TSL__TUNING_VERSION);
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
            e.precision < 0 || !valid_class(tok[3]) || strlen(tok[4]) >= sizeof e.config ||
            (nt == 6 && (strlen(tok[5]) >= sizeof e.notes ||
                         parse_measured(tok[5], e.measured, &e.nmeasured) != 0))) {
            snprintf(why, cap, "%s:%d: malformed entry '%s %s %s %s'", name, lineno, tok[0],
                     tok[1], tok[2], tok[3]);
            goto bad;
        }
        if (level < 0) continue; /* for another device */
        e.level = user_file ? level : NLEVELS + level;
        snprintf(e.op, sizeof e.op, "%s", tok[1]);
        snprintf(e.cls, sizeof e.cls, "%s", tok[3]);
        snprintf(e.config, sizeof e.config, "%s", tok[4]);
        if (nt == 6) snprintf(e.notes, sizeof e.notes, "%s", tok[5]);
        /* the source names the level: the selector as written */
        if (user_file)
            snprintf(e.source, sizeof e.source, "user database %.280s:%d, %.160s entry", name,
                     lineno, tok[0]);
        else
            snprintf(e.source, sizeof e.source, "shipped defaults, %.160s entry", tok[0]);
        if (e.nmeasured) {
            size_t len, used = strlen(e.source);
            const char *v = note_value(e.notes, "measured", &len);
            snprintf(e.source + used, sizeof e.source - used, ", measured on %.*s", (int)len, v);
        }
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
        snprintf(out, cap, "%s/%s@%s.tuning", env, k->device_full,
                 k->driver[0] ? k->driver : "any");
    else if (ctx->cache_dir[0])
        snprintf(out, cap, "%s/tuning/%s@%s.tuning", ctx->cache_dir, k->device_full,
                 k->driver[0] ? k->driver : "any");
}

static void db_free(void *p)
{
    struct tsl__tuning_db *db = p;
    if (!db) return;
    tsl__free(db->e);
    tsl__free(db);
}

/* Drops the loaded entries, so the next lookup reads the files again (after a store). */
static void db_forget(tsl_context *ctx)
{
    if (ctx->ext[DB_SLOT].release) ctx->ext[DB_SLOT].release(ctx->ext[DB_SLOT].ptr);
    ctx->ext[DB_SLOT].ptr = NULL;
    ctx->ext[DB_SLOT].release = NULL;
}

/* The entries for ctx's device, loaded on the first call: shipped defaults, then the user file.
 * Never fails: problems are warnings (tsl_context_warning); NULL only when out of host memory (the
 * built-in defaults then serve). */
static struct tsl__tuning_db *db_load(tsl_context *ctx);
static struct tsl__tuning_db *db_of(tsl_context *ctx)
{
    if (ctx->ext[DB_SLOT].ptr) return ctx->ext[DB_SLOT].ptr;
    double t0 = tsl__now_ms();
    struct tsl__tuning_db *db = db_load(ctx);
    tsl__trace(t0, "tuning database loaded");
    return db;
}

static struct tsl__tuning_db *db_load(tsl_context *ctx)
{
    struct tsl__tuning_db *db = tsl__calloc(1, sizeof *db);
    if (!db) return NULL;
    tsl__device_keys_of(ctx, &db->keys);
    user_path(ctx, &db->keys, db->user_path, sizeof db->user_path);
    ctx->ext[DB_SLOT].ptr = db;
    ctx->ext[DB_SLOT].release = db_free;
    char why[600];
    size_t len;
    const char *shipped = tsl__kernel_source("defaults.tuning", &len);
    if (shipped && parse_text(db, shipped, "defaults.tuning", 0, why, sizeof why) != 0)
        tsl__warn(ctx, "shipped tuning defaults ignored: %s", why);
    if (!db->user_path[0]) return db;
    int too_big;
    char *text = read_file(db->user_path, &too_big);
    if (!text) {
        if (too_big || errno != ENOENT)
            tsl__warn(ctx, "tuning database %s ignored: %s", db->user_path,
                      too_big ? "larger than 1 MiB" : strerror(errno));
        return db;
    }
    if (parse_text(db, text, db->user_path, 1, why, sizeof why) != 0)
        tsl__warn(ctx, "tuning database ignored: %s", why);
    tsl__free(text);
    return db;
}

/* 1 when the entry applies to shape (NULL: only entries for the whole class do). */
static int applies(const entry *e, const tsl__shape *shape)
{
    if (e->nmeasured == 0) return 1;
    if (!shape) return 0;
    for (int i = 0; i < e->nmeasured; ++i)
        if (tsl__shape_near(shape, &e->measured[i])) return 1;
    return 0;
}

const char *tsl__tuning_db_find(const tsl__tuning_db *db, const char *op, int dbl,
                                const char *cls, const tsl__shape *shape, const char **source)
{
    const entry *best = NULL;
    int best_rank = 1 << 30;
    for (int i = 0; i < db->n; ++i) {
        const entry *e = &db->e[i];
        if (strcmp(e->op, op) != 0) continue;
        if (e->precision ? e->precision != dbl + 1 : dbl > 1) continue;
        if (strcmp(e->cls, "any") != 0 && strcmp(e->cls, cls) != 0) continue;
        if (!applies(e, shape)) continue;
        /* level first; within a level an entry for the problem's neighbourhood, then an exact
         * class, then an exact precision; then the later line */
        int rank = e->level * 8 + (e->nmeasured == 0) * 4 + (strcmp(e->cls, "any") == 0) * 2 +
                   (e->precision == 0);
        if (rank <= best_rank) {
            best_rank = rank;
            best = e;
        }
    }
    if (best && source) *source = best->source;
    return best ? best->config : NULL;
}

const char *tsl__tuning_find(tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const tsl__shape *shape, const char **source)
{
    const struct tsl__tuning_db *db = db_of(ctx);
    return db ? tsl__tuning_db_find(db, op, dbl, cls, shape, source) : NULL;
}

tsl__tuning_db *tsl__tuning_db_new(const tsl__device_keys *k)
{
    struct tsl__tuning_db *db = tsl__calloc(1, sizeof *db);
    if (db) db->keys = *k;
    return db;
}

int tsl__tuning_db_add(tsl__tuning_db *db, const char *text, const char *name, int user_file,
                       char *why, size_t cap)
{
    return parse_text(db, text, name, user_file, why, cap);
}

void tsl__tuning_db_free(tsl__tuning_db *db)
{
    db_free(db);
}

int tsl__fields_parse(const char *config, const tsl__field *fields, int nfields, long *values,
                      char *why, size_t cap)
{
    for (const char *p = config; *p;) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        int f = -1;
        for (int i = 0; eq && i < nfields && f < 0; ++i)
            if (strlen(fields[i].name) == (size_t)(eq - p) &&
                strncmp(p, fields[i].name, (size_t)(eq - p)) == 0)
                f = i;
        if (f < 0) {
            snprintf(why, cap, "'%.*s' is not one of its fields", (int)(eq ? eq - p : end - p), p);
            return -1;
        }
        long v = 0;
        const char *d = eq + 1;
        int digits = 0;
        for (; d < end && *d >= '0' && *d <= '9' && v <= fields[f].hi; ++d, ++digits)
            v = v * 10 + (*d - '0');
        if (!digits || d != end || v < fields[f].lo || v > fields[f].hi) {
            snprintf(why, cap, "%s=%.*s is not a whole number from %ld to %ld", fields[f].name,
                     (int)(end - eq - 1), eq + 1, fields[f].lo, fields[f].hi);
            return -1;
        }
        values[f] = v;
        p = *end ? end + 1 : end;
        if (*end && !*p) {
            snprintf(why, cap, "a ',' ends it");
            return -1;
        }
    }
    return 0;
}

/* ---- the public calls that need no operation (the others are in ops/registry.c) -------------- */

/* Loading the entries on demand is a cache fill, invisible to the caller but for the warnings it
 * may leave: these calls take a const context and load through it (every context is made by
 * tsl_context_create, never const). */
const char *tsl_context_warning(const tsl_context *ctx)
{
    if (!ctx) return "";
    db_of((tsl_context *)ctx);
    return ctx->warning;
}

const char *tsl_tuning_file(const tsl_context *ctx)
{
    const struct tsl__tuning_db *db = ctx ? db_of((tsl_context *)ctx) : NULL;
    return db ? db->user_path : "";
}

const char *tsl_tuning_selectors(const tsl_context *ctx)
{
    struct tsl__tuning_db *db = ctx ? db_of((tsl_context *)ctx) : NULL;
    if (!db) return "";
    const tsl__device_keys *k = &db->keys;
    int n = snprintf(db->selectors, sizeof db->selectors, "device=%s", k->device);
    if (n > 0 && strcmp(k->device_full, k->device) != 0)
        n += snprintf(db->selectors + n, sizeof db->selectors - (size_t)n, " (or %s)",
                      k->device_full);
    const char *const level[] = {"arch", "vendor", "type"};
    const char *const key[] = {k->arch, k->vendor, k->type};
    for (int i = 0; i < 3; ++i)
        if (*key[i] && n > 0 && (size_t)n < sizeof db->selectors)
            n += snprintf(db->selectors + n, sizeof db->selectors - (size_t)n, " %s=%s", level[i],
                          key[i]);
    if (n > 0 && (size_t)n < sizeof db->selectors)
        snprintf(db->selectors + n, sizeof db->selectors - (size_t)n, " default");
    return db->selectors;
}

/* The tokens of a line (comment cut off), at most cap; their count. buf is modified. */
static int split_line(char *buf, char **tok, int cap)
{
    char *hash = strchr(buf, '#'), *save = NULL;
    if (hash) *hash = '\0';
    int nt = 0;
    for (char *t = strtok_r(buf, " \t\r", &save); t && nt < cap; t = strtok_r(NULL, " \t\r", &save))
        tok[nt++] = t;
    return nt;
}

/* 1 when the two shape lists are the same set in the same order (as `tessel tune` writes them). */
static int same_shapes(const tsl__shape *a, int na, const tsl__shape *b, int nb)
{
    if (na != nb) return 0;
    for (int i = 0; i < na; ++i)
        if (a[i].m != b[i].m || a[i].n != b[i].n || a[i].k != b[i].k) return 0;
    return 1;
}

/* The user file's lines minus the entry being replaced: this device's selector (either of its
 * names), the same op, precision, class and measured shapes (an entry for the whole class replaces the one for the whole class; one
 * measured near some shapes replaces only one measured on the same shapes). */
static int keep_line(const char *line, const char *sel, const char *sel_full, const char *op,
                     const char *prec, const char *cls, const tsl__shape *measured, int nmeasured)
{
    char buf[1024], *tok[6];
    snprintf(buf, sizeof buf, "%s", line);
    int nt = split_line(buf, tok, 6);
    if (nt == 0) return 1;
    if (strcmp(tok[0], "tessel-tuning") == 0) return 0; /* written again first */
    int mine = strcmp(tok[0], sel) == 0 || strcmp(tok[0], sel_full) == 0;
    if (!(nt >= 4 && mine && strcmp(tok[1], op) == 0 &&
          strcmp(tok[2], prec) == 0 && strcmp(tok[3], cls) == 0))
        return 1;
    tsl__shape theirs[TSL__MAX_MEASURED];
    int ntheirs = 0;
    if (nt == 6 && parse_measured(tok[5], theirs, &ntheirs) != 0) return 1;
    return !same_shapes(theirs, ntheirs, measured, nmeasured);
}

tsl_status tsl__tuning_store(tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const char *config, const char *note,
                             tsl_status (*check)(tsl_context *ctx, const char *variant,
                                                 const char **resolved))
{
    if (!config || !*config || strlen(config) >= 256 || strpbrk(config, " \t\r\n#"))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_tuning_store: config must be one word of under 256 characters");
    if (note && (strlen(note) >= 400 || strpbrk(note, " \t\r\n#")))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_tuning_store: note must be one word (key=value,...) under 400 "
                         "characters");
    tsl__shape measured[TSL__MAX_MEASURED];
    int nmeasured = 0;
    if (note && parse_measured(note, measured, &nmeasured) != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_tuning_store: the note's measured= must be MxNxK+MxNxK+... (up to %d "
                         "shapes, sizes from 1)",
                         TSL__MAX_MEASURED);
    /* The configuration must be one the op accepts on this device. */
    tsl_status s = check(ctx, config, NULL);
    if (s != TSL_OK) return s;
    const struct tsl__tuning_db *db = db_of(ctx);
    if (!db || !db->user_path[0])
        return tsl__fail(ctx, TSL_ERR_IO,
                         "tsl_tuning_store: no usable tuning directory (set TESSEL_TUNING_DIR or "
                         "TESSEL_CACHE_DIR to a writable folder)");
    char path[sizeof db->user_path];
    snprintf(path, sizeof path, "%s", db->user_path);
    char dir[sizeof path];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    if (slash && tsl__make_dirs(dir) != 0)
        return tsl__fail(ctx, TSL_ERR_IO, "tsl_tuning_store: cannot create %s: %s", dir,
                         strerror(errno));
    char sel[160], sel_full[160];
    snprintf(sel, sizeof sel, "device=%s", db->keys.device);
    snprintf(sel_full, sizeof sel_full, "device=%s", db->keys.device_full);
    const char *prec = dbl >= 0 && dbl < NPRECISIONS ? precision_names[dbl] : "single";
    /* Keep the other entries of a readable file; a corrupt one is replaced. */
    int too_big;
    char *old = read_file(path, &too_big);
    struct tsl__tuning_db probe;
    memset(&probe, 0, sizeof probe);
    probe.keys = db->keys;
    char why[600];
    if (old && parse_text(&probe, old, path, 1, why, sizeof why) != 0) {
        tsl__free(old);
        old = NULL;
    }
    tsl__free(probe.e);
    char tmp[sizeof path + 32];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    tsl_temporary_add(tmp); /* before it exists: an interrupted program's handler removes it */
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        tsl__free(old);
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
        if (keep_line(line, sel, sel_full, op, prec, cls, measured, nmeasured))
            fprintf(f, "%s\n", line);
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
        return tsl__fail(ctx, TSL_ERR_IO, "tsl_tuning_store: cannot write %s: %s", path,
                         strerror(e));
    }
    tsl_temporary_drop(tmp);
    db_forget(ctx); /* the next lookup reads the new file */
    return TSL_OK;
}
