/*
 * cloth_mesh.c — the cloth as a mesh, for drawing: which edges are alive,
 * the tangents of the surface at each particle, and the triangles to fill.
 */
#include "cloth_internal.h"
#include "sim_internal.h"
#include "swirl.h"

#include <math.h>
#include <string.h>

void cloth_edges(const struct cloth *c, unsigned char *edges)
{
    int w = c->prm.w;
    memset(edges, 0, (size_t)c->n);
    for (int k = 0; k < c->nc; k++) {
        int a = c->c1[k] < c->c2[k] ? c->c1[k] : c->c2[k];
        int b = c->c1[k] ^ c->c2[k] ^ a, d = b - a;
        bool next_row = b / w == a / w + 1;
        if (d == 1 && !next_row)
            edges[a] |= CLOTH_RIGHT;
        else if (d == w)
            edges[a] |= CLOTH_DOWN;
        else if (d == w + 1 && next_row)
            edges[a] |= CLOTH_DIAG;
        else if (d == w - 1 && next_row)
            edges[a - 1] |= CLOTH_ANTI;
    }
}

/* The tangent at i along a step of `step` particles (1: the row, w: the
 * column) over the intact edges of kind `bit`, in spacings; false if none. */
static bool tangent(const struct cloth *c, const unsigned char *edges, int i, int step,
                    int bit, float *t)
{
    bool fwd = edges[i] & bit, back = i - step >= 0 && (edges[i - step] & bit);
    if (!fwd && !back)
        return false;
    int a = back ? i - step : i, b = fwd ? i + step : i;
    float k = (float)step / ((float)(b - a) * c->prm.spacing);
    t[0] = (c->x[b] - c->x[a]) * k;
    t[1] = (c->y[b] - c->y[a]) * k;
    return true;
}

/* smooth[i]: t at i averaged with t at its intact neighbours along the row and
 * the column, i's own twice. */
static void smooth_tangents(const struct cloth *c, const unsigned char *edges, const float *t,
                            float *smooth)
{
    int w = c->prm.w;
    for (int i = 0; i < c->n; i++) {
        const int nb[4] = {i + 1, i - 1, i + w, i - w};
        const bool ok[4] = {edges[i] & CLOTH_RIGHT, i % w > 0 && (edges[i - 1] & CLOTH_RIGHT),
                            edges[i] & CLOTH_DOWN, i >= w && (edges[i - w] & CLOTH_DOWN)};
        float *o = &smooth[4 * i], n = 2.0f;
        for (int q = 0; q < 4; q++)
            o[q] = 2.0f * t[4 * i + q];
        for (int k = 0; k < 4; k++)
            if (ok[k]) {
                for (int q = 0; q < 4; q++)
                    o[q] += t[4 * nb[k] + q];
                n += 1.0f;
            }
        for (int q = 0; q < 4; q++)
            o[q] /= n;
    }
}

void cloth_tangents(const struct cloth *c, const unsigned char *edges, float *t, float *smooth)
{
    int w = c->prm.w;
    for (int i = 0; i < c->n; i++) {
        float *u = &t[4 * i], *v = u + 2;
        bool hu = tangent(c, edges, i, 1, CLOTH_RIGHT, u);
        bool hv = tangent(c, edges, i, w, CLOTH_DOWN, v);
        if (!hu && !hv)
            u[0] = 1, u[1] = 0, v[0] = 0, v[1] = -1;
        else if (!hv) /* the row's direction turned a quarter clockwise */
            v[0] = u[1], v[1] = -u[0];
        else if (!hu)
            u[0] = -v[1], u[1] = v[0];
    }
    if (smooth)
        smooth_tangents(c, edges, t, smooth);
}

/* The triangles a cell may be drawn as: corners 0 = (i,j), 1 = (i,j+1),
 * 2 = (i+1,j), 3 = (i+1,j+1), and their edges as (corner, kind), the kinds
 * numbered as the bits of cloth_edges. The first two share the diagonal 0-3,
 * the last two the diagonal 1-2. */
static const struct {
    int v[3];
    int e[3][2];
} cell_tri[4] = {
    {{0, 1, 3}, {{0, 0}, {1, 1}, {0, 2}}},
    {{0, 3, 2}, {{0, 2}, {2, 0}, {0, 1}}},
    {{0, 1, 2}, {{0, 0}, {0, 3}, {0, 1}}},
    {{1, 3, 2}, {{1, 1}, {2, 0}, {0, 3}}},
};

int cloth_triangles(const struct cloth *c, const unsigned char *edges, int *tri,
                    unsigned char *uses)
{
    int w = c->prm.w, h = c->prm.h, nt = 0;
    memset(uses, 0, 4 * (size_t)c->n);
    for (int a = 0; a + w + 1 < c->n; a++) {
        if (a % w == w - 1 || a / w >= h - 1)
            continue;
        const int corner[4] = {a, a + 1, a + w, a + w + 1};
        bool whole[4];
        for (int t = 0; t < 4; t++) {
            whole[t] = true;
            for (int k = 0; k < 3; k++)
                whole[t] &= (edges[corner[cell_tri[t].e[k][0]]] >> cell_tri[t].e[k][1]) & 1;
        }
        int pick[2] = {-1, -1};
        if (whole[0] && whole[1])
            pick[0] = 0, pick[1] = 1;
        else if (whole[2] && whole[3])
            pick[0] = 2, pick[1] = 3;
        else
            for (int t = 3; t >= 0; t--)
                pick[0] = whole[t] ? t : pick[0];
        for (int q = 0; q < 2 && pick[q] >= 0; q++) {
            int t = pick[q];
            for (int k = 0; k < 3; k++) {
                tri[3 * nt + k] = corner[cell_tri[t].v[k]];
                uses[4 * corner[cell_tri[t].e[k][0]] + cell_tri[t].e[k][1]]++;
            }
            nt++;
        }
    }
    return nt;
}
