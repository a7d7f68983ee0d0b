/* commands.h: the subcommands of the tessel command, each in its own cmd_<name>.c. A subcommand
 * gets the arguments after its name and returns the process exit code (args.h). */
#ifndef TESSEL_CLI_COMMANDS_H
#define TESSEL_CLI_COMMANDS_H

int cli_cmd_devices(int argc, char **argv);
int cli_cmd_gemm(int argc, char **argv);
int cli_cmd_poisson(int argc, char **argv);
int cli_cmd_blas1(int argc, char **argv);
int cli_cmd_gemv(int argc, char **argv);
int cli_cmd_lapack(int argc, char **argv);
int cli_cmd_blas3(int argc, char **argv);
int cli_cmd_transpose(int argc, char **argv);
int cli_cmd_bandwidth(int argc, char **argv);
int cli_cmd_tune(int argc, char **argv);
int cli_cmd_study(int argc, char **argv);
/* 002's workloads */
int cli_cmd_pi(int argc, char **argv);
int cli_cmd_nbody(int argc, char **argv);
int cli_cmd_kmeans(int argc, char **argv);

#endif
