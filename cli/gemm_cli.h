/* gemm_cli.h: what cli/cmd_gemm.c takes from the files beside it: the help text (gemm_help.c). */
#ifndef TESSEL_CLI_GEMM_H
#define TESSEL_CLI_GEMM_H

#include <stddef.h>

#include "args.h"

/* Prints `tessel gemm --help`: the command's description, its options, the peers. */
void cli_gemm_help(const cli_option *opts, size_t nopts);

#endif
