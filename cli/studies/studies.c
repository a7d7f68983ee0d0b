/* studies.c: the list of the seven studies of `tessel study` (docs/studies.md); the helpers their
 * hooks share are in hooks.c. Each study is a reproduction of a measurement in one source document
 * (../shared/seeds), defined in its own file, cli/studies/study_NAME.c: its parameters per mode,
 * the tessel subcommands it runs, its figures, and the little code it needs: setup drops what the
 * device or the build cannot run (as skipped rows with the reason), derive computes the study's own
 * columns from the measured ones, and the summary writes the markdown tables and the paragraph that
 * sets the result beside the document's claim. The claims quoted there are the documents' own
 * numbers, on their hardware. */
#include <string.h>

#include "study.h"
#include "study_defs.h"

/* ---- the table of studies ------------------------------------------------------------------ */

static const study_def *const studies[] = {
    &study_memory_hierarchy, &study_gemm_ladder, &study_transpose,      &study_optimizations,
    &study_precision,        &study_poisson,     &study_opencl_vs_cuda,
};

size_t study_count(void)
{
    return COUNT(studies);
}

const study_def *study_at(size_t i)
{
    return i < COUNT(studies) ? studies[i] : NULL;
}

const study_def *study_find_def(const char *name)
{
    for (size_t i = 0; i < COUNT(studies); ++i)
        if (strcmp(studies[i]->name, name) == 0) return studies[i];
    return NULL;
}
