/* keys.c: the keys a device is looked up by in the tuning database, one per level (tune.h,
 * tsl__device_keys): its normalized name, its architecture, its vendor and its type. The name is
 * normalized so that one entry serves every spelling of one product and nothing else:
 * "NVIDIA H100 80GB HBM3" is h100 (the vendor's prefix and the memory fitted to the board are not
 * part of the chip's name), "NVIDIA H100 PCIe" is h100_pcie (another board, other clocks),
 * "NVIDIA H200" and "H200" are both h200. The full name, every word kept, stays a second key of
 * the device level (the name of the user's file, and the selector older tessels wrote). */
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tune/tune.h"

/* Lower case, every run of other characters one '_', no '_' at either end. */
void tsl__tuning_normalize(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    int pending = 0;
    if (cap == 0) return;
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

/* Words that are not part of a product's name: the vendors' own prefixes ("NVIDIA H100",
 * "AMD Radeon ...", "Intel(R) Data Center GPU ...") and the marks (R) and (TM). */
static int is_prefix_word(const char *w, size_t len)
{
    static const char *const words[] = {"nvidia", "amd", "intel"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; ++i)
        if (strlen(words[i]) == len && strncmp(w, words[i], len) == 0) return 1;
    return 0;
}
static int is_mark_word(const char *w, size_t len)
{
    return (len == 1 && w[0] == 'r') || (len == 2 && strncmp(w, "tm", 2) == 0);
}

/* A word that names the memory fitted to a board: a size ("80gb", "16g", "512mb") or a kind
 * ("hbm3", "hbm2e", "gddr6x"). */
static int is_memory_word(const char *w, size_t len)
{
    size_t d = 0;
    while (d < len && w[d] >= '0' && w[d] <= '9')
        ++d;
    if (d > 0 && d < len) {
        const char *u = w + d;
        size_t ul = len - d;
        if ((ul == 2 && (strncmp(u, "gb", 2) == 0 || strncmp(u, "mb", 2) == 0)) ||
            (ul == 1 && u[0] == 'g'))
            return 1;
    }
    static const char *const kinds[] = {"hbm", "gddr", "lpddr"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) {
        size_t kl = strlen(kinds[i]);
        if (len < kl || strncmp(w, kinds[i], kl) != 0) continue;
        size_t j = kl;
        while (j < len && w[j] >= '0' && w[j] <= '9')
            ++j;
        if (j < len && (w[j] == 'e' || w[j] == 'x')) ++j;
        if (j == len) return 1;
    }
    return 0;
}

void tsl__tuning_device_name(const char *name, char *out, size_t cap)
{
    char full[256];
    tsl__tuning_normalize(name, full, sizeof full);
    /* the words, as (start, length) pairs of full */
    size_t start[64], len[64], nw = 0;
    for (size_t i = 0; full[i] && nw < 64;) {
        size_t j = i;
        while (full[j] && full[j] != '_')
            ++j;
        start[nw] = i, len[nw] = j - i;
        if (!is_mark_word(full + i, j - i)) ++nw;
        i = full[j] ? j + 1 : j;
    }
    size_t first = 0, last = nw; /* the words kept: [first, last), never none */
    while (last - first > 1 && is_prefix_word(full + start[first], len[first]))
        ++first;
    while (last - first > 1 && is_memory_word(full + start[last - 1], len[last - 1]))
        --last;
    size_t n = 0;
    if (cap == 0) return;
    for (size_t w = first; w < last; ++w) {
        if (n + len[w] + (w > first) >= cap) break;
        if (w > first) out[n++] = '_';
        memcpy(out + n, full + start[w], len[w]);
        n += len[w];
    }
    out[n] = '\0';
}

void tsl__device_keys_from(const tsl__device_desc *d, tsl__device_keys *k)
{
    memset(k, 0, sizeof *k);
    tsl__tuning_device_name(d->name ? d->name : "", k->device, sizeof k->device);
    tsl__tuning_normalize(d->name ? d->name : "", k->device_full, sizeof k->device_full);
    tsl__tuning_normalize(d->driver ? d->driver : "", k->driver, sizeof k->driver);
    tsl__tuning_normalize(d->arch ? d->arch : "", k->arch, sizeof k->arch);
    tsl__tuning_normalize(d->type ? d->type : "", k->type, sizeof k->type);
    char vendor[64];
    tsl__tuning_normalize(d->vendor ? d->vendor : "", vendor, sizeof vendor);
    /* PoCL's CPU devices report the processor's maker as their vendor; what compiles and runs
     * the kernels there is PoCL, whichever processor it is. */
    int pocl_cpu = d->platform && strstr(d->platform, "Portable Computing Language") &&
                   strcmp(k->type, "cpu") == 0;
    const char *v = vendor;
    if (pocl_cpu)
        v = "pocl";
    else if (strstr(vendor, "nvidia"))
        v = "nvidia";
    else if (strstr(vendor, "advanced_micro") || strstr(vendor, "amd"))
        v = "amd";
    else if (strstr(vendor, "intel"))
        v = "intel";
    else {
        char *cut = strchr(vendor, '_'); /* the vendor string's first word */
        if (cut) *cut = '\0';
    }
    snprintf(k->vendor, sizeof k->vendor, "%s", v);
}

void tsl__device_keys_of(const tsl_context *ctx, tsl__device_keys *k)
{
    char arch[64];
    tsl__device_arch(ctx, arch, sizeof arch);
    tsl__device_desc d = {.name = ctx->info.name,
                          .vendor = ctx->info.vendor,
                          .platform = ctx->info.platform,
                          .type = ctx->info.type,
                          .arch = arch,
                          .driver = ctx->info.driver_version};
    tsl__device_keys_from(&d, k);
}
