/*
 * fixtures.c — the shared test fixtures of fixtures.h.
 */
#include "fixtures.h"

#include <math.h>

struct cloth_params fx_cloth_params(int w, int h, int fixed)
{
    struct cloth_params p;
    cloth_params_seed(&p);
    p.w = w;
    p.h = h;
    p.fixed = fixed;
    return p;
}

void fx_cloth_steps(struct cloth *c, int n)
{
    for (int i = 0; i < n; i++)
        cloth_step(c);
}

bool fx_cloth_finite(const struct cloth *c)
{
    for (int i = 0; i < c->n; i++)
        if (!isfinite(c->x[i]) || !isfinite(c->y[i]) || !isfinite(c->vx[i]) ||
            !isfinite(c->vy[i]))
            return false;
    return true;
}

int fx_cloth_differences(const struct cloth *a, const struct cloth *b)
{
    int bad = 0;
    for (int i = 0; i < a->n; i++)
        if (a->x[i] != b->x[i] || a->y[i] != b->y[i] || a->vx[i] != b->vx[i] ||
            a->vy[i] != b->vy[i])
            bad++;
    return bad;
}
