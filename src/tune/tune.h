/* tune.h: the tuning layer's internal interface (src/tune). Two parts, both independent of any
 * particular operation:
 *  - the tuning database (db.c): text files of "which configuration is best" entries, keyed by
 *    device, architecture, vendor and device type, per op, precision and size class; the shipped
 *    defaults (src/tune/defaults.tuning, embedded at build time like the kernels) plus the user's
 *    own results in the tuning directory. A context loads the entries that apply to its device
 *    once, at creation, and looks them up without touching the disk again.
 *  - the search (tuner.c): walks an op's parameter space (tsl__space: axes of integer values and
 *    a validity check against the device), exhaustively where small, else by random sampling
 *    interleaved with refinement around the best configuration found so far.
 * An op describes its space and size classes in its descriptor (ops/ops.h); the CLI's `tessel
 * tune` measures and verifies each candidate and stores the winner. docs/tuning.md has the file
 * format and the lookup order. */
#ifndef TSL_TUNE_H
#define TSL_TUNE_H

#include <stddef.h>

#include "tessel.h"

#define TSL__TUNING_VERSION 1
#define TSL__MAX_AXES 24
#define TSL__MAX_AXIS_VALUES 8

/* One tunable: its name as it appears in configuration strings and its candidate values in
 * increasing order (refinement moves to the neighbouring value). */
typedef struct {
    const char *name;
    int nvalues;
    int values[TSL__MAX_AXIS_VALUES];
} tsl__axis;

/* An op's search space: configurations "<variant>:NAME=V,NAME=V,..." of one variant. */
typedef struct {
    const char *variant; /* "tiled2d" */
    const tsl__axis *axes;
    int naxes;
    /* 1 when these values (one per axis) can run on ctx's device at this precision: the limits
     * the device reports (work-group size, local memory, registers where the vendor says) and the
     * kernel's own divisibility rules. */
    int (*valid)(const tsl_context *ctx, int dbl, const int *values);
    /* Optional (NULL: every value): 0 when no configuration with this value of this axis can be
     * valid on ctx's device at this precision, so the tuner need not visit any (PoCL has no use
     * for local memory, double no 16-wide vectors, only NVIDIA's FP64 tensor cores MMA). Never 0
     * for a value valid() could accept. */
    int (*allowed)(const tsl_context *ctx, int dbl, int axis, int value);
    /* The tuner walks the first `searched` axes; the others stay at their first value (host-side
     * choices with an automatic setting, such as gemm's KSPLIT = 0). 0 means all. */
    int searched;
    /* Configurations the tuner tries first, after auto's (those that are valid here): designs
     * known to be good somewhere, which random sampling of a space of millions may never reach
     * (and refinement, one axis at a time, cannot reach across worse neighbours). NULL-ended. */
    const char *const *seeds;
} tsl__space;

/* Parses "<variant>:NAME=V,..." against the space into values (axes not named keep what values
 * holds on entry). Returns 0, or -1 with a reason in why. */
int tsl__space_parse(const tsl__space *sp, const char *config, int *values, char *why,
                     size_t cap);
/* Formats values as "<variant>:NAME=V,..." (every axis). */
void tsl__space_format(const tsl__space *sp, const int *values, char *out, size_t cap);

/* ---- database (db.c) ---------------------------------------------------------------------- */

/* Loads the entries for ctx's device: shipped defaults, then the user file. Never fails: a
 * corrupt or foreign-version file is skipped with a warning kept in the context. */
void tsl__tuning_load(tsl_context *ctx);
void tsl__tuning_free(tsl_context *ctx);
/* The best entry for (op, precision 32|64, size class): its configuration and where it came from
 * ("user database <path>", "shipped defaults, arch sm_90", ...); NULL when no entry applies. */
const char *tsl__tuning_find(const tsl_context *ctx, const char *op, int dbl, const char *cls,
                             const char **source);
/* Records a warning (first one kept, later ones appended while there is room). */
void tsl__warn(tsl_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The device keys the database matches on (normalized: lower case, [a-z0-9_] only). */
typedef struct {
    char device[128], driver[64], arch[64], vendor[64], type[16];
} tsl__device_keys;
void tsl__device_keys_of(const tsl_context *ctx, tsl__device_keys *k);

#endif
