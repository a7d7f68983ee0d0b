/* cache.c: the on-disk cache of compiled program binaries. An entry is keyed by the device name,
 * driver version, platform, a hash of the source and the build options; its file holds a magic
 * line, the full key (checked, not just its hash), the payload length and a checksum. Anything
 * that does not check out (unreadable, truncated, corrupt, another key) is ignored and rebuilt,
 * never trusted. Writes go to a unique temporary file that is renamed into place, so two
 * processes can never leave a half-written entry. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/runtime.h"

static const char MAGIC[8] = {'T', 'S', 'L', 'B', 'I', 'N', '1', '\n'};
#define MAX_ENTRY (256u << 20) /* no program binary is this large: a bigger length is corrupt */

unsigned long long tsl__hash64(const void *data, size_t len, unsigned long long seed)
{
    /* FNV-1a, 64 bit: stable across machines, good enough to name and check cache entries. */
    const unsigned char *p = data;
    unsigned long long h = 1469598103934665603ull ^ seed;
    for (size_t i = 0; i < len; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* mkdir -p; 0 when the directory exists afterwards. */
int tsl__make_dirs(const char *path)
{
    char tmp[1024];
    if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp) return -1;
    for (char *p = tmp + 1; *p; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
    struct stat st;
    return (stat(tmp, &st) == 0 && S_ISDIR(st.st_mode)) ? 0 : -1;
}

tsl_status tsl_cache_dir(char *dir, size_t cap)
{
    if (!dir || cap == 0) return TSL_ERR_INVALID_ARG;
    const char *env = getenv("TESSEL_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w;
    dir[0] = '\0';
    if (env && *env) w = snprintf(dir, cap, "%s", env);
    else if (xdg && *xdg) w = snprintf(dir, cap, "%s/tessel", xdg);
    else if (home && *home) w = snprintf(dir, cap, "%s/.cache/tessel", home);
    else return TSL_ERR_IO;
    if (w <= 0 || (size_t)w >= cap) {
        dir[0] = '\0';
        return TSL_ERR_INVALID_ARG;
    }
    if (tsl__make_dirs(dir) != 0 || access(dir, W_OK | R_OK) != 0) {
        dir[0] = '\0';
        return TSL_ERR_IO;
    }
    return TSL_OK;
}

void tsl__cache_dir_init(tsl_context *ctx)
{
    char dir[1024];
    ctx->cache_dir[0] = '\0';
    if (tsl_cache_dir(dir, sizeof dir) == TSL_OK)
        snprintf(ctx->cache_dir, sizeof ctx->cache_dir, "%s", dir);
}

static int entry_path(const tsl_context *ctx, const char *key, char *path, size_t cap)
{
    if (!ctx->cache_dir[0]) return -1;
    unsigned long long h = tsl__hash64(key, strlen(key), 0);
    int w = snprintf(path, cap, "%s/%016llx.bin", ctx->cache_dir, h);
    return (w > 0 && (size_t)w < cap) ? 0 : -1;
}

static int read_u64(FILE *f, uint64_t *v) { return fread(v, sizeof *v, 1, f) == 1 ? 0 : -1; }

int tsl__cache_load(const tsl_context *ctx, const char *key, unsigned char **data, size_t *len)
{
    char path[1200];
    if (entry_path(ctx, key, path, sizeof path) != 0) return -1;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    int ok = -1;
    unsigned char *buf = NULL;
    char magic[8];
    uint64_t key_len, payload_len, sum;
    size_t want = strlen(key);
    if (fread(magic, 1, 8, f) != 8 || memcmp(magic, MAGIC, 8) != 0) goto done;
    if (read_u64(f, &key_len) || key_len != want) goto done;
    char *stored = tsl__malloc(want + 1);
    if (!stored) goto done;
    int same = fread(stored, 1, want, f) == want && memcmp(stored, key, want) == 0;
    tsl__free(stored);
    if (!same) goto done;
    if (read_u64(f, &payload_len) || read_u64(f, &sum)) goto done;
    if (payload_len == 0 || payload_len > MAX_ENTRY) goto done;
    buf = tsl__malloc((size_t)payload_len);
    if (!buf || fread(buf, 1, (size_t)payload_len, f) != payload_len) goto done;
    if (fgetc(f) != EOF) goto done; /* trailing bytes: not a file this code wrote */
    if (tsl__hash64(buf, (size_t)payload_len, 0) != sum) goto done;
    *data = buf;
    *len = (size_t)payload_len;
    buf = NULL;
    ok = 0;
done:
    tsl__free(buf);
    fclose(f);
    return ok;
}

void tsl__cache_store(const tsl_context *ctx, const char *key, const unsigned char *data, size_t len)
{
    char path[1200], tmp[1300];
    if (!len || entry_path(ctx, key, path, sizeof path) != 0) return;
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) return;
    int fd = tsl_temporary_mkstemp(tmp); /* an interrupted program's handler removes it */
    if (fd < 0) return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        tsl_temporary_drop(tmp);
        return;
    }
    uint64_t key_len = strlen(key), payload_len = len, sum = tsl__hash64(data, len, 0);
    int ok = fwrite(MAGIC, 1, 8, f) == 8 && fwrite(&key_len, sizeof key_len, 1, f) == 1 &&
             fwrite(key, 1, key_len, f) == key_len &&
             fwrite(&payload_len, sizeof payload_len, 1, f) == 1 &&
             fwrite(&sum, sizeof sum, 1, f) == 1 && fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
    tsl_temporary_drop(tmp);
}
