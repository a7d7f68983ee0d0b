/* tune.h: the tuning layer's internal interface (src/tune). Two parts, both independent of any
 * particular operation:
 *  - the tuning database (db.c): text files of "which configuration is best" entries, keyed by
 *    device, architecture, vendor and device type, per op, precision and size class, an entry
 *    optionally limited to the problems near the shapes it was measured on; the shipped defaults
 *    (src/tune/defaults.tuning, embedded at build time like the kernels) plus the user's own
 *    results in the tuning directory. A context loads the entries that apply to its device on
 *    the first lookup, keeps them in its ext slot (the runtime frees them without knowing what
 *    they are) and looks them up without touching the disk again.
 *  - the search (tuner.c): walks an op's parameter space (tsl__space: axes of integer values and
 *    a validity check against the device), exhaustively where small, else by random sampling
 *    interleaved with refinement around the best configuration found so far.
 * This layer knows no operation: the ops layer (ops/registry.c) finds an op's descriptor and
 * hands over what is needed (its size class, search space, variant check); the public tuning
 * calls live there. The CLI's `tessel tune` measures and verifies each candidate and stores a
 * winner only where it is no slower than auto (docs/tuning.md has the file format, the lookup
 * order and that rule). */
#ifndef TSL_TUNE_H
#define TSL_TUNE_H

#include <stddef.h>

#include "tessel.h"

/* The format version written; files of version 1 (no measured= notes) are read as well. */
#define TSL__TUNING_VERSION 2
#define TSL__MAX_MEASURED 16
#define TSL__MAX_AXES 24
#define TSL__MAX_AXIS_VALUES 8

/* One tunable: its name as it appears in configuration strings and its candidate values in
 * increasing order (refinement moves to the neighbouring value). */
typedef struct {
    const char *name;
    int nvalues;
    int values[TSL__MAX_AXIS_VALUES];
} tsl__axis;

/* An op's search space: configurations "<variant>:NAME=V,NAME=V,..." of one variant. `kind` in
 * its functions is the precision code of tsl__tuning_find (0 single, 1 double, and for GEMM 2
 * half, 3 bfloat16, 4 single in TF32 math, 5 in 3xTF32 math). */
typedef struct {
    const char *variant; /* "tiled2d" */
    const tsl__axis *axes;
    int naxes;
    /* 1 when these values (one per axis) can run on ctx's device at this kind and pay there: the
     * limits the device reports (work-group size, local memory, registers where the vendor says)
     * and the kernel's own divisibility rules. */
    int (*valid)(const tsl_context *ctx, int kind, const int *values);
    /* Optional (NULL: every value): 0 when no configuration with this value of this axis can be
     * valid on ctx's device at this kind, so the tuner need not visit any (PoCL has no use
     * for local memory, double no 16-wide vectors, only NVIDIA's tensor cores MMA). Never 0
     * for a value valid() could accept. */
    int (*allowed)(const tsl_context *ctx, int kind, int axis, int value);
    /* Bit a set: the tuner does not walk axis a, which stays at its first value (host-side
     * choices with an automatic setting, such as gemm's KSPLIT = 0). */
    unsigned long held;
    /* Configurations the tuner tries first, after auto's (those that are valid here): designs
     * known to be good somewhere, which random sampling of a space of millions may never reach
     * (and refinement, one axis at a time, cannot reach across worse neighbours). NULL-ended. */
    const char *const *seeds;
    /* Optional: the kind's own seeds, tried before `seeds`: 1 with the i-th one's values (one
     * per axis), 0 past the last. */
    int (*kind_seed)(int kind, int i, int *values);
    /* Optional: NULL when the kind can be tuned on ctx's device, else why not, written into why
     * (a device without the only instructions that compute the kind fast). */
    const char *(*unavailable)(const tsl_context *ctx, int kind, char *why, size_t cap);
    /* Optional: 0 when no configuration whose first axes 0..a hold these values (the later ones
     * unset) can be valid on ctx's device at this kind, so the tuner skips every point under
     * that prefix without asking valid() for each (double's space on an sm_90 is 4 x 10^8
     * points). Only rules valid() itself applies: never 0 where valid() could accept one. */
    int (*prefix_ok)(const tsl_context *ctx, int kind, const int *values, int a);
} tsl__space;

/* Parses "<variant>:NAME=V,..." against the space into values (axes not named keep what values
 * holds on entry). Returns 0, or -1 with a reason in why. */
int tsl__space_parse(const tsl__space *sp, const char *config, int *values, char *why,
                     size_t cap);
/* Formats values as "<variant>:NAME=V,..." (every axis). */
void tsl__space_format(const tsl__space *sp, const int *values, char *out, size_t cap);

/* ---- database (db.c) ---------------------------------------------------------------------- */

/* A problem's shape as the database keys it (gemm: m, n, k; other ops leave what they lack 1). */
typedef struct {
    size_t m, n, k;
} tsl__shape;

/* An entry measured on shapes S applies to a problem near one of them: each of m, n and k within
 * a factor of 2 of that shape's (s/2 <= x <= 2s). */
int tsl__shape_near(const tsl__shape *problem, const tsl__shape *measured);
/* Parses "MxNxK+MxNxK+..." (len characters of text) into up to cap shapes; the count, or -1 when
 * malformed (a size 0, over 2^31, or more than cap shapes). */
int tsl__shapes_parse(const char *text, size_t len, tsl__shape *out, int cap);

/* The best entry for (op, precision, size class) that applies to shape (NULL: no particular
 * shape, so only the entries for the whole class): its configuration and where it came from
 * ("user database <path>:<line>, measured on 256x256x256", "shipped defaults, arch=sm_90 entry",
 * ...); NULL when no entry applies. Loads the database on first use; never fails: a corrupt or
 * foreign-version file is skipped with a warning kept in the context. */
const char *tsl__tuning_find(tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const tsl__shape *shape, const char **source);
/* dbl there (and in tsl__tuning_store) is a precision code: 0 single, 1 double, and for GEMM
 * 2 half, 3 bfloat16 (tsl_precision's values), 4 single in TF32 math, 5 in 3xTF32 math; the file's
 * precision column names them single, double, half, bfloat16, tf32, 3xtf32 ("any": single and
 * double). */
/* Stores config as this device's entry for (op, precision, class) in the user file (the rules of
 * tsl_tuning_store); `check` is the op's variant check, run on config first. A note with
 * "measured=MxNxK+..." limits the entry to the problems near those shapes. */
tsl_status tsl__tuning_store(tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const char *config, const char *note,
                             tsl_status (*check)(tsl_context *ctx, const char *variant,
                                                 const char **resolved));

/* ---- search (tuner.c) ----------------------------------------------------------------------- */

/* tsl_tuner_create for an op whose descriptor the caller found: its space, and the size class
 * whose entry (for the whole class) is auto's configuration, the first candidate; kind as the
 * space's functions take it. */
tsl_status tsl__tuner_create(tsl_context *ctx, const char *op, const tsl__space *sp, int kind,
                             const char *first_class, unsigned long long seed, tsl_tuner **out);

/* ---- the device's keys (keys.c) ------------------------------------------------------------ */

/* What the database knows a device by, as the runtime reports it (raw strings; NULL as ""). */
typedef struct {
    const char *name, *vendor, *platform, *type, *arch, *driver;
} tsl__device_desc;

/* The keys the database matches on, one per selector level (lower case, [a-z0-9_] only):
 * device, the product's name without the vendor's prefix and the board's memory ("h100" for
 * "NVIDIA H100 80GB HBM3"); device_full, every word of the name (the user file's name; a
 * device= selector matches either); arch ("sm_90", "gfx90", "haswell"; "" when the device does
 * not say); vendor (nvidia, amd, intel, pocl for PoCL's CPU devices, else the vendor string's
 * first word); type (gpu, cpu, accel). */
typedef struct {
    char device[128], device_full[128], driver[64], arch[64], vendor[64], type[16];
} tsl__device_keys;
void tsl__device_keys_from(const tsl__device_desc *d, tsl__device_keys *k);
void tsl__device_keys_of(const tsl_context *ctx, tsl__device_keys *k);
/* Lower case, each run of other characters one '_', none at either end. */
void tsl__tuning_normalize(const char *in, char *out, size_t cap);
/* A device name as the device level keys it (tsl__device_keys.device). */
void tsl__tuning_device_name(const char *name, char *out, size_t cap);

/* ---- a database on its own (db.c), for the lookup's tests ----------------------------------- */

/* The entries of texts added one by one that apply to a device with keys k, looked up as a
 * context's are (tsl__tuning_find is this on the context's keys and files). */
typedef struct tsl__tuning_db tsl__tuning_db;
tsl__tuning_db *tsl__tuning_db_new(const tsl__device_keys *k);
/* user_file: the user's entries, ahead of every shipped one. 0, or -1 with why (nothing added). */
int tsl__tuning_db_add(tsl__tuning_db *db, const char *text, const char *name, int user_file,
                       char *why, size_t cap);
const char *tsl__tuning_db_find(const tsl__tuning_db *db, const char *op, int dbl,
                                const char *cls, const tsl__shape *shape, const char **source);
void tsl__tuning_db_free(tsl__tuning_db *db);

/* ---- entries of named integer fields (db.c) ------------------------------------------------- */

/* One field of an entry that holds numbers rather than a kernel configuration (TRSM's block
 * sizes and part counts): its name and the range of its values. */
typedef struct {
    const char *name;
    long lo, hi;
} tsl__field;
/* Parses "NAME=V,NAME=V,..." into values (fields not named keep what values holds on entry).
 * 0, or -1 with why (an unknown name, a value that is not a whole number in its range). */
int tsl__fields_parse(const char *config, const tsl__field *fields, int nfields, long *values,
                      char *why, size_t cap);

#endif
