/*
 * pbf_core.c — what the files of the pbf step share, calling none of them:
 * the passes' runs over the ranges on the pool (pbf_run_parts: pbf_solve.c's
 * passes and pbf_density.c's) and the re-sort of the water by grid cell.
 */
#include "pbf_internal.h"
#include "pool.h"

#include <stddef.h>
#include <string.h>

/* ---- Passes ------------------------------------------------------------------ */

/*
 * The water is cut into groups of PBF_LANES consecutive slots and the groups
 * into PBF_PARTS ranges (pbf_part) of about equal work (cut_ranges, in
 * pbf_solve.c). Every pass runs the ranges through pool_run; a range reads
 * what it likes but writes only its own slots and its own lists, and the one
 * sum a pass makes (the density error) is kept per range and added in range
 * order. So the bits do not depend on how many threads ran the ranges, or in
 * what order.
 */
struct run {
    struct pbf_job *job;
    pbf_part_fn fn;
};

static void run_part(void *arg, int part, int nparts)
{
    const struct run *r = arg;
    (void)nparts;
    r->fn(r->job, &r->job->s->part[part]);
}

void pbf_run_parts(struct pbf_job *j, pbf_part_fn fn)
{
    struct run r = {j, fn};
    pool_run(j->s->pool, run_part, &r, PBF_PARTS);
}

/* ---- Order ------------------------------------------------------------------- */

/* The water's new order: the cells of a grid over the water alone, row by row
 * (ns.sorted; ns.rank is the inverse). The state that outlives a step moves with
 * it (xold is the scratch: predict rewrites it), and so do id/slot and the held
 * slots. */
void pbf_sort_by_cell(struct pbf *s)
{
    const int nf = s->nfluid;
    if (nsearch_grid(&s->ns, s->x, s->y, nf, s->h) != 0)
        return;
    const int *order = s->ns.sorted, *rank = s->ns.rank;
    float *arrays[] = {s->x, s->y, s->vx, s->vy, s->ax, s->ay};
    float *tmp = s->xold;
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        for (int k = 0; k < nf; k++)
            tmp[k] = arrays[a][order[k]];
        memcpy(arrays[a], tmp, (size_t)nf * sizeof *tmp);
    }
    for (int k = 0; k < nf; k++)
        s->slot[k] = s->id[order[k]]; /* slot[] as the scratch for the new id[] */
    memcpy(s->id, s->slot, (size_t)nf * sizeof *s->id);
    for (int k = 0; k < nf; k++)
        s->slot[s->id[k]] = k;
    for (int g = 0; g < s->ngrab; g++)
        s->held[s->grab_i[g]] = 0;
    for (int g = 0; g < s->ngrab; g++) {
        s->grab_i[g] = rank[s->grab_i[g]];
        s->held[s->grab_i[g]] = 1;
    }
    s->grabbed = s->ngrab > 0 ? s->grab_i[0] : -1;
}
