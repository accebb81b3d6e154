/*
 * fluid_core.c — the dye solver's state, which its other files share and
 * which calls none of them: the parameters' defaults, the grids (allocated,
 * freed, cleared: the projection clears a field that blew up, resize
 * allocates anew), init and free, the pool.
 */
#include "fluid_internal.h"

#include <stdlib.h>
#include <string.h>

/* The multigrid levels halve the velocity grid until a side is COARSEST cells
 * short. */
enum { COARSEST = 3 };

void fluid_params_default(struct fluid_params *p)
{
    p->dt = 1.0f / 30.0f;
    p->viscosity = 0.0f;
    p->diffusion = 0.0f;
    p->decay = 0.25f;
    p->dissipation = 0.1f;
    p->vorticity = 8.0f;
    p->tolerance = 1e-3f;
    p->max_cycles = 12;
    p->stop = NULL;
}

static void levels_free(struct fluid *f)
{
    for (int l = 0; l < f->nlevels; l++) {
        free(f->lv[l].p);
        free(f->lv[l].b);
    }
    f->nlevels = 0;
}

void fluid_grids_free(struct fluid *f)
{
    free(f->u), free(f->v), free(f->u0), free(f->v0);
    free(f->curl), free(f->dye), free(f->dye0);
    f->u = f->v = f->u0 = f->v0 = f->curl = f->dye = f->dye0 = NULL;
    levels_free(f);
}

int fluid_grids_alloc(struct fluid *f)
{
    size_t nu = (size_t)(f->nx + 1) * (size_t)f->ny, nv = (size_t)f->nx * (size_t)(f->ny + 1);
    size_t nd = 3 * (size_t)f->dw * (size_t)f->dh;
    bool ok = true;
    f->u = calloc(nu, sizeof(float)), f->u0 = calloc(nu, sizeof(float));
    f->v = calloc(nv, sizeof(float)), f->v0 = calloc(nv, sizeof(float));
    f->curl = calloc((size_t)f->nx * (size_t)f->ny, sizeof(float));
    f->dye = calloc(nd, sizeof(float)), f->dye0 = calloc(nd, sizeof(float));
    ok = f->u && f->u0 && f->v && f->v0 && f->curl && f->dye && f->dye0;
    int nx = f->nx, ny = f->ny;
    f->nlevels = 0;
    while (ok) {
        struct fluid_level *L = &f->lv[f->nlevels++];
        size_t n = (size_t)nx * (size_t)ny;
        L->nx = nx;
        L->ny = ny;
        L->p = calloc(n, sizeof(float));
        L->b = calloc(n, sizeof(float));
        ok = L->p && L->b;
        if (nx <= COARSEST || ny <= COARSEST || f->nlevels == FLUID_MAX_LEVELS)
            break;
        nx = (nx + 1) / 2;
        ny = (ny + 1) / 2;
    }
    if (!ok)
        fluid_grids_free(f);
    return ok ? 0 : -1;
}

bool fluid_sizes_ok(int nx, int ny, int dw, int dh)
{
    return nx >= 1 && ny >= 1 && dw >= 1 && dh >= 1 && nx <= FLUID_MAX_N && ny <= FLUID_MAX_N &&
           dw <= FLUID_MAX_DYE && dh <= FLUID_MAX_DYE;
}

int fluid_init(struct fluid *f, const struct fluid_params *p, int nx, int ny, int dw, int dh)
{
    memset(f, 0, sizeof *f);
    if (!fluid_sizes_ok(nx, ny, dw, dh))
        return -1;
    f->prm = *p;
    f->nx = nx, f->ny = ny, f->dw = dw, f->dh = dh;
    return fluid_grids_alloc(f);
}

void fluid_free(struct fluid *f) { fluid_grids_free(f); }

void fluid_clear(struct fluid *f)
{
    memset(f->u, 0, (size_t)(f->nx + 1) * (size_t)f->ny * sizeof(float));
    memset(f->v, 0, (size_t)f->nx * (size_t)(f->ny + 1) * sizeof(float));
    memset(f->dye, 0, 3 * (size_t)f->dw * (size_t)f->dh * sizeof(float));
    memset(f->lv[0].p, 0, (size_t)f->nx * (size_t)f->ny * sizeof(float));
}

void fluid_set_pool(struct fluid *f, struct pool *p) { f->pool = p; }
