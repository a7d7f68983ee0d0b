/* test_openblas_core.c: the OpenBLAS core choice and description of the openblas peer
 * (cli/peers/peer_openblas.h). tsl_openblas_better_core is pure, so it is checked on cpuinfo
 * flag lines (the GPU machine's, where Debian's OpenBLAS 0.3.21 falls back to Prescott, and
 * others) without the CPU they come from; the description is checked for what the CSV's device
 * column needs (no comma, the version, the core, the threads, who set OPENBLAS_CORETYPE). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "peer_openblas.h"

/* The flags line of the GPU machine's CPU (a virtualized "Intel(R) Xeon(R) Processor", Sapphire
 * Rapids class: AVX-512 with bf16 and fp16, AMX), as /proc/cpuinfo prints it. */
static const char gpu_host[] =
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
    "sse2 ss syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl xtopology cpuid "
    "tsc_known_freq "
    "pni pclmulqdq ssse3 fma cx16 pcid sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes "
    "xsave avx f16c rdrand hypervisor lahf_lm abm 3dnowprefetch cpuid_fault ssbd ibrs ibpb stibp "
    "ibrs_enhanced fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid avx512f avx512dq rdseed "
    "adx "
    "smap avx512ifma clflushopt clwb avx512cd sha_ni avx512bw avx512vl xsaveopt xsavec xgetbv1 "
    "xsaves avx_vnni avx512_bf16 wbnoinvd arat avx512vbmi umip pku ospke waitpkg avx512_vbmi2 gfni "
    "vaes vpclmulqdq avx512_vnni avx512_bitalg avx512_vpopcntdq la57 rdpid bus_lock_detect "
    "cldemote movdiri movdir64b md_clear serialize tsxldtrk amx_bf16 avx512_fp16 amx_tile amx_int8 "
    "flush_l1d arch_capabilities\n";

static const char skylake_x[] = "fpu sse sse2 ssse3 sse4_1 sse4_2 avx fma avx2 avx512f avx512dq "
                                "avx512cd avx512bw avx512vl";
static const char haswell[] = "fpu sse sse2 ssse3 sse4_1 sse4_2 avx fma avx2";
static const char sandy[] = "fpu sse sse2 ssse3 sse4_1 sse4_2 avx";
static const char sse_only[] = "fpu sse sse2 ssse3 sse4_1 sse4_2";

static int is(const char *got, const char *want)
{
    return got && want ? strcmp(got, want) == 0 : got == want;
}

static void check_choice(void)
{
    /* The GPU machine: the case the choice exists for. */
    CHECK(is(tsl_openblas_better_core("Prescott", gpu_host), "Cooperlake"), "gpu host -> %s",
          tsl_openblas_better_core("Prescott", gpu_host));
    /* Each generic core, in any case. */
    static const char *const generic[] = {
        "Prescott",     "prescott",  "PRESCOTT",   "Core2",   "Katmai", "Coppermine", "Northwood",
        "Banias",       "Penryn",    "Dunnington", "Nehalem", "Atom",   "Athlon",     "Opteron",
        "Opteron_SSE3", "Barcelona", "Nano",       "Bobcat",  "Unknown"};
    for (size_t i = 0; i < sizeof generic / sizeof generic[0]; ++i)
        CHECK(is(tsl_openblas_better_core(generic[i], skylake_x), "SkylakeX"), "%s -> %s",
              generic[i], tsl_openblas_better_core(generic[i], skylake_x));
    /* The ladder of flags. */
    CHECK(is(tsl_openblas_better_core("Prescott", haswell), "Haswell"), "avx2+fma");
    CHECK(is(tsl_openblas_better_core("Prescott", sandy), "Sandybridge"), "avx only");
    CHECK(is(tsl_openblas_better_core("Prescott", sse_only), NULL), "no avx: keep Prescott");
    CHECK(is(tsl_openblas_better_core("Prescott", ""), NULL), "no flags");
    /* AVX-512 without one of the five SkylakeX needs is Haswell; bf16 without them is too. */
    CHECK(is(tsl_openblas_better_core("Prescott", "avx avx2 fma avx512f avx512cd avx512dq "
                                                  "avx512vl avx512_bf16"),
             "Haswell"),
          "no avx512bw");
    /* Whole words: avx512fp16 is not avx512f, xavx2 is not avx2. */
    CHECK(is(tsl_openblas_better_core("Prescott", "avx avx2 fma avx512fp16 avx512cd avx512bw "
                                                  "avx512dq avx512vl"),
             "Haswell"),
          "avx512fp16 is not avx512f");
    CHECK(is(tsl_openblas_better_core("Prescott", "avx xavx2 fmax"), "Sandybridge"),
          "xavx2 is not avx2");
    /* Tabs and the trailing newline of a cpuinfo line separate words too. */
    CHECK(is(tsl_openblas_better_core("Core2", "\tavx\tavx2 fma\n"), "Haswell"), "tabs");
    /* A core OpenBLAS chose on purpose is never replaced, whatever the flags. */
    static const char *const proper[] = {
        "SkylakeX",  "Cooperlake",     "Haswell",    "Zen", "Sandybridge",
        "Excavator", "SapphireRapids", "neoversen1", ""};
    for (size_t i = 0; i < sizeof proper / sizeof proper[0]; ++i)
        CHECK(is(tsl_openblas_better_core(proper[i], gpu_host), NULL), "%s kept", proper[i]);
    CHECK(is(tsl_openblas_better_core(NULL, gpu_host), NULL), "NULL core");
    CHECK(is(tsl_openblas_better_core("Prescott", NULL), NULL), "NULL flags");
}

static void check_description(void)
{
    char buf[256];
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(TSL_OPENBLAS_DETECTED_ENV);
    tsl_openblas_describe(buf, sizeof buf);
    CHECK(strncmp(buf, "host CPU: OpenBLAS ", 19) == 0, "'%s'", buf);
    CHECK(strchr(buf, ',') == NULL, "no comma for the CSV: '%s'", buf);
    CHECK(strstr(buf, tsl_openblas_core()) != NULL, "names the core: '%s'", buf);
    CHECK(strstr(buf, " threads (") != NULL, "names the threads: '%s'", buf);
    CHECK(buf[strlen(buf) - 1] == ')', "'%s'", buf);
    CHECK(strstr(buf, "OPENBLAS_CORETYPE") == NULL, "unset: '%s'", buf);

    /* Set by the user (only the variable), then by the command (with the detected core). This
     * process's OpenBLAS has loaded already: the text names the variable, the core what runs. */
    setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
    tsl_openblas_describe(buf, sizeof buf);
    CHECK(strstr(buf, "; OPENBLAS_CORETYPE=SkylakeX)") != NULL, "'%s'", buf);
    CHECK(strstr(buf, "set by tessel") == NULL, "'%s'", buf);
    setenv(TSL_OPENBLAS_DETECTED_ENV, "Prescott", 1);
    tsl_openblas_describe(buf, sizeof buf);
    CHECK(strstr(buf, "; OPENBLAS_CORETYPE=SkylakeX set by tessel; detected Prescott)") != NULL,
          "'%s'", buf);
    CHECK(strlen(buf) < 200, "fits the peer's device field: %zu", strlen(buf));
    /* The command never plans again once it has chosen or the user has. */
    CHECK(tsl_openblas_planned_core() == NULL, "planned after the choice");
    unsetenv(TSL_OPENBLAS_DETECTED_ENV);
    CHECK(tsl_openblas_planned_core() == NULL, "planned over the user's choice");
    unsetenv("OPENBLAS_CORETYPE");

    /* Cut to the buffer, always terminated. */
    memset(buf, 'x', sizeof buf);
    tsl_openblas_describe(buf, 12);
    CHECK(strlen(buf) == 11 && strncmp(buf, "host CPU: O", 11) == 0, "'%s'", buf);
    tsl_openblas_describe(buf, 1);
    CHECK(buf[0] == '\0', "cap 1");
}

int main(void)
{
    check_choice();
    check_description();
    return check_summary("test_openblas_core");
}
