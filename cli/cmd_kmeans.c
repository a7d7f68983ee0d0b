/* cmd_kmeans.c: placeholder until this subcommand lands (being written this session). */
#include "args.h"
#include "commands.h"

int cli_cmd_kmeans(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return cli_error(CLI_EXIT_USAGE, "'tessel kmeans' is not yet available");
}
