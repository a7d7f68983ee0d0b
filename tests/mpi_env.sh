# mpi_env.sh (sourced; MPIRUN set): the mpirun command line of the MPI tests in MPI, and skip
# (exit 77) where mpirun is missing or cannot start two processes here, with mpirun's reason.
# OpenMPI as root in a container: --allow-run-as-root; no ptrace-based single copy (CMA often
# fails in containers) and no ssh-based launch are needed for processes on this one host.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI=("$MPIRUN" --oversubscribe)
[ "$(id -u)" = 0 ] && MPI+=(--allow-run-as-root)
command -v "$MPIRUN" >/dev/null 2>&1 || { echo "SKIP: no mpirun ($MPIRUN)" >&2; exit 77; }
if ! probe=$(timeout 60 "${MPI[@]}" -np 2 true 2>&1); then
    echo "SKIP: mpirun cannot start 2 processes here: $(echo "$probe" | head -5)" >&2
    exit 77
fi
