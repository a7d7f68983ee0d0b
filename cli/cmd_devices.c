/* cmd_devices.c: `tessel devices [--json]`, the OpenCL platforms and devices tessel sees, with
 * the P:D indices that --device takes and the facts that decide what runs where (type, compute
 * units, clock, memory, largest buffer, work-group size, fp64), and the OpenBLAS that the
 * openblas peer times (version, core, threads, build options; peer_openblas.h), since its kernels
 * depend on the host CPU. Everything comes from tsl_devices() and the peer; this file only
 * prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "peer_openblas.h"
#include "tessel.h"

static void human_bytes(unsigned long long b, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024.0 && u < 4)
        v /= 1024.0, ++u;
    if (u == 0 || v >= 100.0 || v == (double)(unsigned long long)v)
        snprintf(buf, cap, "%.0f %s", v, units[u]);
    else
        snprintf(buf, cap, "%.1f %s", v, units[u]);
}

/* The OpenBLAS line(s) under the table. */
static void print_openblas(void)
{
    char desc[256];
    tsl_openblas_describe(desc, sizeof desc);
    printf("\nopenblas peer: %s\n", desc);
    const char *planned = tsl_openblas_planned_core();
    if (planned)
        printf("  OpenBLAS detected %s, a generic core, on a CPU whose flags support %s: commands "
               "that time\n  OpenBLAS run it with OPENBLAS_CORETYPE=%s (set OPENBLAS_CORETYPE to "
               "override)\n",
               tsl_openblas_detected_core(), planned, planned);
}

static void json_or_null(const char *s)
{
    if (s)
        cli_json_string(stdout, s);
    else
        printf("null");
}

static void print_json(const tsl_device_info *d, size_t n)
{
    printf("{\n  \"tool\": \"tessel\",\n  \"version\": ");
    cli_json_string(stdout, tsl_version());
    printf(",\n  \"devices\": [");
    for (size_t i = 0; i < n; ++i) {
        char index[32];
        snprintf(index, sizeof index, "%d:%d", d[i].platform_index, d[i].device_index);
        printf("%s\n    {\"index\": ", i ? "," : "");
        cli_json_string(stdout, index);
        printf(", \"platform_index\": %d, \"device_index\": %d, \"platform\": ",
               d[i].platform_index, d[i].device_index);
        cli_json_string(stdout, d[i].platform);
        printf(", \"name\": ");
        cli_json_string(stdout, d[i].name);
        printf(", \"vendor\": ");
        cli_json_string(stdout, d[i].vendor);
        printf(", \"driver_version\": ");
        cli_json_string(stdout, d[i].driver_version);
        printf(", \"opencl_version\": ");
        cli_json_string(stdout, d[i].opencl_version);
        printf(", \"type\": ");
        cli_json_string(stdout, d[i].type);
        printf(", \"compute_units\": %u, \"clock_mhz\": %u, \"global_mem\": %llu, "
               "\"local_mem\": %llu, \"max_alloc\": %llu, \"max_work_group\": %zu, "
               "\"fp64\": %s}",
               d[i].compute_units, d[i].clock_mhz, d[i].global_mem, d[i].local_mem, d[i].max_alloc,
               d[i].max_work_group, d[i].fp64 ? "true" : "false");
    }
    char desc[256];
    tsl_openblas_describe(desc, sizeof desc);
    printf("%s],\n  \"openblas\": {\"description\": ", n ? "\n  " : "");
    cli_json_string(stdout, desc);
    printf(", \"config\": ");
    cli_json_string(stdout, tsl_openblas_config());
    printf(", \"core\": ");
    cli_json_string(stdout, tsl_openblas_core());
    printf(", \"threads\": %d, \"coretype\": ", tsl_openblas_threads());
    json_or_null(getenv("OPENBLAS_CORETYPE"));
    printf(", \"planned_coretype\": ");
    json_or_null(tsl_openblas_planned_core());
    printf("}\n}\n");
}

static void print_table(const tsl_device_info *d, size_t n)
{
    enum { NCOLS = 11 };
    cli_column cols[NCOLS] = {
        {"device", 6, 0}, {"type", 5, 0},  {"CUs", 4, 1},       {"MHz", 5, 1},
        {"global", 9, 1}, {"local", 8, 1}, {"max_alloc", 9, 1}, {"max_wg", 6, 1},
        {"fp64", 4, 0},   {"name", 4, 0},  {"platform", 0, 0},
    };
    for (size_t i = 0; i < n; ++i) {
        int len = (int)strlen(d[i].name);
        if (len > cols[9].width) cols[9].width = len;
    }
    cli_table_header(stdout, cols, NCOLS);
    for (size_t i = 0; i < n; ++i) {
        char index[32], cu[16], mhz[16], global[32], local[32], alloc[32], wg[24];
        snprintf(index, sizeof index, "%d:%d", d[i].platform_index, d[i].device_index);
        snprintf(cu, sizeof cu, "%u", d[i].compute_units);
        snprintf(mhz, sizeof mhz, "%u", d[i].clock_mhz);
        human_bytes(d[i].global_mem, global, sizeof global);
        human_bytes(d[i].local_mem, local, sizeof local);
        human_bytes(d[i].max_alloc, alloc, sizeof alloc);
        snprintf(wg, sizeof wg, "%zu", d[i].max_work_group);
        const char *cells[NCOLS] = {
            index,     d[i].type,    cu, mhz, global, local, alloc, wg, d[i].fp64 ? "yes" : "no",
            d[i].name, d[i].platform};
        cli_table_row(stdout, cols, NCOLS, cells);
    }
}

int cli_cmd_devices(int argc, char **argv)
{
    int json = 0, help = 0;
    const cli_option opts[] = {
        {"--json", NULL, CLI_FLAG, &json, NULL, "print JSON instead of a table"},
        {"--help", "-h", CLI_FLAG, &help, NULL, "this help"},
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    if (cli_wants_help(argc, argv)) {
        printf("Usage: tessel devices [--json]\n\n"
               "Lists every OpenCL device tessel can use: its index P:D (platform:device, what\n"
               "--device takes), type, compute units, clock, global and local memory, largest\n"
               "single buffer (max_alloc, which bounds --size), maximum work-group size, and\n"
               "whether it does double precision (fp64). Below them, the OpenBLAS that the\n"
               "openblas peer times: version, core (kernels), threads and build options, and the\n"
               "core tessel chooses where OpenBLAS falls back to generic kernels.\n\n"
               "Options:\n");
        cli_print_options(stdout, opts, nopts);
        printf("\nExit codes: 0 success, 2 usage error, 3 no OpenCL device or driver error.\n\n"
               "Example:\n  tessel devices --json\n");
        return CLI_EXIT_OK;
    }
    int rc = cli_parse("devices", argc, argv, opts, nopts);
    if (rc) return rc;

    size_t count = 0;
    tsl_status st = tsl_devices(NULL, 0, &count);
    if (st != TSL_OK)
        return cli_error(CLI_EXIT_RUNTIME, "cannot list OpenCL devices: %s (%s)", tsl_last_error(),
                         tsl_status_name(st));
    if (count == 0)
        return cli_error(CLI_EXIT_RUNTIME,
                         "no OpenCL device found: install an OpenCL driver "
                         "(for the CPU, pocl-opencl-icd) and check /etc/OpenCL/vendors");
    tsl_device_info *list = calloc(count, sizeof *list);
    if (!list) return cli_error(CLI_EXIT_RUNTIME, "out of host memory");
    size_t again = 0;
    st = tsl_devices(list, count, &again);
    if (st != TSL_OK) {
        free(list);
        return cli_error(CLI_EXIT_RUNTIME, "cannot list OpenCL devices: %s (%s)", tsl_last_error(),
                         tsl_status_name(st));
    }
    if (again < count) count = again;
    if (json)
        print_json(list, count);
    else {
        print_table(list, count);
        print_openblas();
    }
    free(list);
    fflush(stdout);
    return CLI_EXIT_OK;
}
