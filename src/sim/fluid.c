/*
 * fluid.c — Stable Fluids on a MAC grid with a multigrid pressure solve and RGB
 * dye on a finer grid (see fluid.h for the layout and units).
 *
 * Grids: velocity cell (i,j) spans [i,i+1] x [j,j+1] in velocity cells; u(i,j) sits
 * at (i, j+0.5), v(i,j) at (i+0.5, j), pressure p(i,j) at the cell centre. Dye cell
 * (i,j) spans [i,i+1] x [j,j+1] in dye cells; sx = nx/dw and sy = ny/dh convert
 * dye cells to velocity cells.
 *
 * Pressure: A p = b with (A p)_ij = n_ij p_ij - sum of the n_ij neighbours inside
 * the box (closed walls: Neumann), b = -div u; then u -= grad p on the interior
 * faces. Multigrid: red-black Gauss-Seidel smoothing, restriction by summing the
 * children's residuals (the unscaled stencil on a grid twice as coarse), piecewise
 * constant prolongation, many sweeps on the coarsest level.
 */
#include "fluid.h"
#include "swirl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
    PRE_SWEEPS = 2,
    POST_SWEEPS = 2,
    COARSE_SWEEPS = 40,
    COARSEST = 3,          /* stop coarsening when a side is this short */
    DIFFUSE_MAX_SWEEPS = 40,
};
#define DIFFUSE_TOL 1e-4f  /* stop diffusing when the largest update is this small */

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
}

#define U(f, i, j) ((f)->u[(size_t)(j) * (size_t)((f)->nx + 1) + (size_t)(i)])
#define V(f, i, j) ((f)->v[(size_t)(j) * (size_t)(f)->nx + (size_t)(i)])

static void levels_free(struct fluid *f)
{
    for (int l = 0; l < f->nlevels; l++) {
        free(f->lv[l].p);
        free(f->lv[l].b);
        free(f->lv[l].r);
    }
    f->nlevels = 0;
}

static void arrays_free(struct fluid *f)
{
    free(f->u), free(f->v), free(f->u0), free(f->v0);
    free(f->curl), free(f->dye), free(f->dye0);
    f->u = f->v = f->u0 = f->v0 = f->curl = f->dye = f->dye0 = NULL;
    levels_free(f);
}

/* Allocates every array for f's sizes, zeroed; returns 0, or -1 with nothing
 * allocated when memory runs out. */
static int arrays_alloc(struct fluid *f)
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
        L->r = calloc(n, sizeof(float));
        ok = L->p && L->b && L->r;
        if (nx <= COARSEST || ny <= COARSEST || f->nlevels == FLUID_MAX_LEVELS)
            break;
        nx = (nx + 1) / 2;
        ny = (ny + 1) / 2;
    }
    if (!ok)
        arrays_free(f);
    return ok ? 0 : -1;
}

static bool sizes_ok(int nx, int ny, int dw, int dh)
{
    return nx >= 1 && ny >= 1 && dw >= 1 && dh >= 1 && nx <= 4096 && ny <= 4096 &&
           dw <= 8192 && dh <= 8192;
}

int fluid_init(struct fluid *f, const struct fluid_params *p, int nx, int ny, int dw, int dh)
{
    memset(f, 0, sizeof *f);
    if (!sizes_ok(nx, ny, dw, dh))
        return -1;
    f->prm = *p;
    f->nx = nx, f->ny = ny, f->dw = dw, f->dh = dh;
    return arrays_alloc(f);
}

void fluid_free(struct fluid *f) { arrays_free(f); }

void fluid_clear(struct fluid *f)
{
    memset(f->u, 0, (size_t)(f->nx + 1) * (size_t)f->ny * sizeof(float));
    memset(f->v, 0, (size_t)f->nx * (size_t)(f->ny + 1) * sizeof(float));
    memset(f->dye, 0, 3 * (size_t)f->dw * (size_t)f->dh * sizeof(float));
    memset(f->lv[0].p, 0, (size_t)f->nx * (size_t)f->ny * sizeof(float));
}

/* ---- sampling ------------------------------------------------------------ */

/* Bilinear sample of a w x h node grid at fractional node coordinates, clamped
 * to the grid. Hot: inline, no divisions, one branch-free clamp per axis. */
static inline float bilerp(const float *a, int w, int h, float fx, float fy)
{
    float mx = (float)(w - 1), my = (float)(h - 1);
    fx = fx > 0.0f ? (fx < mx ? fx : mx) : 0.0f;
    fy = fy > 0.0f ? (fy < my ? fy : my) : 0.0f;
    int i = (int)fx, j = (int)fy;
    i -= i == w - 1 && w > 1;
    j -= j == h - 1 && h > 1;
    float s = fx - (float)i, t = fy - (float)j;
    const float *p = a + (size_t)j * (size_t)w + (size_t)i;
    size_t di = w > 1, dj = h > 1 ? (size_t)w : 0;
    float a0 = p[0] + (p[di] - p[0]) * s;
    float a1 = p[dj] + (p[dj + di] - p[dj]) * s;
    return a0 + (a1 - a0) * t;
}

/* Where a bilinear sample of the interleaved RGB dye of a dw x dh grid reads:
 * the four nodes around (fx, fy) (dye-node coordinates, clamped to the grid) as
 * the offsets of their first channel, and the fractions s along x and t along y
 * from the first of them. */
struct dye_taps {
    size_t k00, k10, k01, k11;
    float s, t;
};

static inline struct dye_taps dye_taps(int dw, int dh, float fx, float fy)
{
    struct dye_taps q;
    fx = clampf(fx, 0.0f, (float)(dw - 1));
    fy = clampf(fy, 0.0f, (float)(dh - 1));
    int i0 = (int)fx, j0 = (int)fy;
    int i1 = i0 + 1 < dw ? i0 + 1 : i0, j1 = j0 + 1 < dh ? j0 + 1 : j0;
    q.s = fx - (float)i0;
    q.t = fy - (float)j0;
    q.k00 = 3 * ((size_t)j0 * (size_t)dw + (size_t)i0);
    q.k10 = 3 * ((size_t)j0 * (size_t)dw + (size_t)i1);
    q.k01 = 3 * ((size_t)j1 * (size_t)dw + (size_t)i0);
    q.k11 = 3 * ((size_t)j1 * (size_t)dw + (size_t)i1);
    return q;
}

/* Velocity (velocity cells/s) at a point in velocity cells. */
static inline void velocity_at(const float *u, const float *v, int nx, int ny, float x, float y,
                        float *vx, float *vy)
{
    *vx = bilerp(u, nx + 1, ny, x, y - 0.5f);
    *vy = bilerp(v, nx, ny + 1, x - 0.5f, y);
}

/* Where the fluid at (x,y), moving at (ax,ay) there, came from dt ago (midpoint
 * rule), kept in the box. */
static inline void backtrace_from(const float *u, const float *v, int nx, int ny, float dt,
                                  float ax, float ay, float *x, float *y)
{
    float bx, by;
    velocity_at(u, v, nx, ny, *x - 0.5f * dt * ax, *y - 0.5f * dt * ay, &bx, &by);
    *x = clampf(*x - dt * bx, 0.0f, (float)nx);
    *y = clampf(*y - dt * by, 0.0f, (float)ny);
}

static inline void backtrace(const float *u, const float *v, int nx, int ny, float dt,
                             float *x, float *y)
{
    float ax, ay;
    velocity_at(u, v, nx, ny, *x, *y, &ax, &ay);
    backtrace_from(u, v, nx, ny, dt, ax, ay, x, y);
}

/* ---- velocity ------------------------------------------------------------ */

/* Self-advection. At a face its own component is known and the other is the
 * mean of the four faces around it, so the first stage of the back-trace needs
 * no interpolation. */
static void advect_velocity(struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    float dt = f->prm.dt;
    float *u0 = f->u0, *v0 = f->v0;
    memcpy(u0, f->u, (size_t)(nx + 1) * (size_t)ny * sizeof(float));
    memcpy(v0, f->v, (size_t)nx * (size_t)(ny + 1) * sizeof(float));
    for (int j = 0; j < ny; j++)
        for (int i = 1; i < nx; i++) {
            float x = (float)i, y = (float)j + 0.5f;
            float ax = u0[(size_t)j * (size_t)(nx + 1) + (size_t)i];
            const float *vv = v0 + (size_t)j * (size_t)nx + (size_t)i;
            float ay = 0.25f * (vv[-1] + vv[0] + vv[nx - 1] + vv[nx]);
            backtrace_from(u0, v0, nx, ny, dt, ax, ay, &x, &y);
            U(f, i, j) = bilerp(u0, nx + 1, ny, x, y - 0.5f);
        }
    for (int j = 1; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float x = (float)i + 0.5f, y = (float)j;
            const float *uu = u0 + (size_t)j * (size_t)(nx + 1) + (size_t)i;
            float ax = 0.25f * (uu[0] + uu[1] + uu[-(nx + 1)] + uu[-nx]);
            float ay = v0[(size_t)j * (size_t)nx + (size_t)i];
            backtrace_from(u0, v0, nx, ny, dt, ax, ay, &x, &y);
            V(f, i, j) = bilerp(v0, nx, ny + 1, x - 0.5f, y);
        }
}

/* Vorticity confinement: f = eps (N x w), N = grad|w| / |grad|w||, on the faces. */
static void confine_vorticity(struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    float eps = f->prm.vorticity, dt = f->prm.dt;
    if (!(eps > 0.0f) || nx < 3 || ny < 3)
        return;
    float *w = f->curl, *fx = f->u0, *fy = f->v0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int il = i > 0 ? i - 1 : i, ir = i < nx - 1 ? i + 1 : i;
            int jt = j > 0 ? j - 1 : j, jb = j < ny - 1 ? j + 1 : j;
            float vr = 0.5f * (V(f, ir, j) + V(f, ir, j + 1));
            float vl = 0.5f * (V(f, il, j) + V(f, il, j + 1));
            float ub = 0.5f * (U(f, i, jb) + U(f, i + 1, jb));
            float ut = 0.5f * (U(f, i, jt) + U(f, i + 1, jt));
            w[j * nx + i] = (vr - vl) / (float)(ir - il) - (ub - ut) / (float)(jb - jt);
        }
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * (size_t)nx + (size_t)i;
            fx[k] = fy[k] = 0.0f;
            if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1)
                continue;
            float gx = 0.5f * (fabsf(w[k + 1]) - fabsf(w[k - 1]));
            float gy = 0.5f * (fabsf(w[k + (size_t)nx]) - fabsf(w[k - (size_t)nx]));
            float len = sqrtf(gx * gx + gy * gy) + 1e-6f;
            fx[k] = eps * (gy / len) * w[k];
            fy[k] = -eps * (gx / len) * w[k];
        }
    for (int j = 0; j < ny; j++)
        for (int i = 1; i < nx; i++)
            U(f, i, j) += dt * 0.5f * (fx[j * nx + i - 1] + fx[j * nx + i]);
    for (int j = 1; j < ny; j++)
        for (int i = 0; i < nx; i++)
            V(f, i, j) += dt * 0.5f * (fy[(j - 1) * nx + i] + fy[j * nx + i]);
}

/*
 * Implicit diffusion (1 + n a) x - a sum(x_nb) = x0 by Gauss-Seidel on a w x h
 * grid of `nc` interleaved channels; rows/columns marked fixed keep their values
 * (walls), missing neighbours are left out (no flux). Stops when the largest
 * update is below DIFFUSE_TOL times the field's scale; x0 is scratch of the same
 * size. Returns the sweeps taken.
 */
static int diffuse(float *x, float *x0, int w, int h, int nc, float a, bool fix_cols,
                   bool fix_rows)
{
    float scale = 1e-6f;
    size_t n = (size_t)w * (size_t)h * (size_t)nc;
    for (size_t k = 0; k < n; k++)
        scale = fmaxf(scale, fabsf(x[k]));
    memcpy(x0, x, n * sizeof(float));
    int sweeps = 0;
    for (; sweeps < DIFFUSE_MAX_SWEEPS; sweeps++) {
        float change = 0.0f;
        for (int j = fix_rows ? 1 : 0; j < (fix_rows ? h - 1 : h); j++)
            for (int i = fix_cols ? 1 : 0; i < (fix_cols ? w - 1 : w); i++)
                for (int c = 0; c < nc; c++) {
                    size_t k = ((size_t)j * (size_t)w + (size_t)i) * (size_t)nc + (size_t)c;
                    float s = 0.0f;
                    int cnt = 0;
                    if (i > 0) s += x[k - (size_t)nc], cnt++;
                    if (i < w - 1) s += x[k + (size_t)nc], cnt++;
                    if (j > 0) s += x[k - (size_t)(w * nc)], cnt++;
                    if (j < h - 1) s += x[k + (size_t)(w * nc)], cnt++;
                    float nv = (x0[k] + a * s) / (1.0f + a * (float)cnt);
                    change = fmaxf(change, fabsf(nv - x[k]));
                    x[k] = nv;
                }
        if (change <= DIFFUSE_TOL * scale) {
            sweeps++;
            break;
        }
    }
    return sweeps;
}

/* ---- pressure: multigrid ------------------------------------------------- */

static void smooth(struct fluid_level *L, int sweeps)
{
    int nx = L->nx, ny = L->ny;
    float *p = L->p;
    const float *b = L->b;
    for (int s = 0; s < sweeps; s++)
        for (int colour = 0; colour < 2; colour++)
            for (int j = 0; j < ny; j++) {
                size_t row = (size_t)j * (size_t)nx;
                for (int i = (j + colour) & 1; i < nx; i += 2) {
                    size_t k = row + (size_t)i;
                    float sum = 0.0f;
                    int n = 0;
                    if (i > 0) sum += p[k - 1], n++;
                    if (i < nx - 1) sum += p[k + 1], n++;
                    if (j > 0) sum += p[k - (size_t)nx], n++;
                    if (j < ny - 1) sum += p[k + (size_t)nx], n++;
                    if (n)
                        p[k] = (b[k] + sum) / (float)n;
                }
            }
}

/* r = b - A p; returns sum of r^2. */
static double residual(struct fluid_level *L)
{
    int nx = L->nx, ny = L->ny;
    const float *p = L->p, *b = L->b;
    double sum2 = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            size_t k = (size_t)j * (size_t)nx + (size_t)i;
            float ap = 0.0f;
            if (i > 0) ap += p[k] - p[k - 1];
            if (i < nx - 1) ap += p[k] - p[k + 1];
            if (j > 0) ap += p[k] - p[k - (size_t)nx];
            if (j < ny - 1) ap += p[k] - p[k + (size_t)nx];
            L->r[k] = b[k] - ap;
            sum2 += (double)L->r[k] * (double)L->r[k];
        }
    return sum2;
}

static void remove_mean(float *a, size_t n)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++)
        s += a[k];
    float m = (float)(s / (double)n);
    for (size_t k = 0; k < n; k++)
        a[k] -= m;
}

static void vcycle(struct fluid *f, int l)
{
    struct fluid_level *L = &f->lv[l];
    if (l == f->nlevels - 1) {
        smooth(L, COARSE_SWEEPS);
        return;
    }
    struct fluid_level *C = &f->lv[l + 1];
    smooth(L, PRE_SWEEPS);
    residual(L);
    memset(C->b, 0, (size_t)C->nx * (size_t)C->ny * sizeof(float));
    for (int j = 0; j < L->ny; j++)
        for (int i = 0; i < L->nx; i++)
            C->b[(j >> 1) * C->nx + (i >> 1)] += L->r[j * L->nx + i];
    remove_mean(C->b, (size_t)C->nx * (size_t)C->ny);
    memset(C->p, 0, (size_t)C->nx * (size_t)C->ny * sizeof(float));
    vcycle(f, l + 1);
    for (int j = 0; j < L->ny; j++)
        for (int i = 0; i < L->nx; i++)
            L->p[j * L->nx + i] += C->p[(j >> 1) * C->nx + (i >> 1)];
    smooth(L, POST_SWEEPS);
}

/* Sets lv[0].b = -div u; returns sum of b^2. */
static double divergence(struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    float *b = f->lv[0].b;
    double sum2 = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float d = U(f, i + 1, j) - U(f, i, j) + V(f, i, j + 1) - V(f, i, j);
            b[j * nx + i] = -d;
            sum2 += (double)d * (double)d;
        }
    return sum2;
}

void fluid_project(struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    struct fluid_level *L = &f->lv[0];
    double bb = divergence(f);
    f->cycles = 0;
    if (!(bb > 1e-20) || !isfinite(bb)) {
        if (!isfinite(bb)) /* a blown-up field: start again from rest */
            fluid_clear(f);
        f->residual = f->residual0 = 0.0f;
        memset(L->p, 0, (size_t)nx * (size_t)ny * sizeof(float));
        return;
    }
    remove_mean(L->b, (size_t)nx * (size_t)ny);
    double bnorm = sqrt(bb);
    float res = (float)(sqrt(residual(L)) / bnorm);
    if (!isfinite(res)) { /* a stale warm start: forget it */
        memset(L->p, 0, (size_t)nx * (size_t)ny * sizeof(float));
        res = (float)(sqrt(residual(L)) / bnorm);
    }
    f->residual0 = res;
    while (res > f->prm.tolerance && f->cycles < f->prm.max_cycles) {
        vcycle(f, 0);
        f->cycles++;
        res = (float)(sqrt(residual(L)) / bnorm);
    }
    f->residual = res;
    const float *p = L->p;
    for (int j = 0; j < ny; j++)
        for (int i = 1; i < nx; i++)
            U(f, i, j) -= p[j * nx + i] - p[j * nx + i - 1];
    for (int j = 1; j < ny; j++)
        for (int i = 0; i < nx; i++)
            V(f, i, j) -= p[j * nx + i] - p[(j - 1) * nx + i];
}

float fluid_divergence_norm(const struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    double s = 0.0, m = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float d = U(f, i + 1, j) - U(f, i, j) + V(f, i, j + 1) - V(f, i, j);
            float speed = fabsf(U(f, i, j)) + fabsf(V(f, i, j));
            s += (double)d * (double)d;
            m += (double)speed * (double)speed;
        }
    return m > 0.0 ? (float)sqrt(s / m) : 0.0f;
}

/* ---- dye ----------------------------------------------------------------- */

/*
 * One semi-Lagrangian pass for all three channels. Bilinear back-tracing is not
 * exactly conservative (it loses about 1-2 % of the dye per 100 steps of hard
 * stirring); the flow is divergence-free and the box closed, so each channel is
 * scaled back to the total it had before the pass: the factors land in scale[3].
 */
static void advect_dye(struct fluid *f, float scale[3])
{
    int dw = f->dw, dh = f->dh, nx = f->nx, ny = f->ny;
    float sx = (float)nx / (float)dw, sy = (float)ny / (float)dh, dt = f->prm.dt;
    float *d0 = f->dye0, *d = f->dye;
    size_t nd = 3 * (size_t)dw * (size_t)dh;
    double before[3] = {0, 0, 0}, after[3] = {0, 0, 0};
    bool same = dw == nx && dh == ny;
    memcpy(d0, d, nd * sizeof(float));
    for (size_t k = 0; k < nd; k += 3)
        before[0] += d0[k], before[1] += d0[k + 1], before[2] += d0[k + 2];
    for (int j = 0; j < dh; j++)
        for (int i = 0; i < dw; i++) {
            float x = ((float)i + 0.5f) * sx, y = ((float)j + 0.5f) * sy;
            if (same) { /* the cell's velocity is the mean of its faces */
                float ax = 0.5f * (U(f, i, j) + U(f, i + 1, j));
                float ay = 0.5f * (V(f, i, j) + V(f, i, j + 1));
                backtrace_from(f->u, f->v, nx, ny, dt, ax, ay, &x, &y);
            } else {
                backtrace(f->u, f->v, nx, ny, dt, &x, &y);
            }
            /* Back to dye cells, then to dye-node coordinates. */
            const struct dye_taps q = dye_taps(dw, dh, x / sx - 0.5f, y / sy - 0.5f);
            const float *a = d0 + q.k00, *b = d0 + q.k10, *c = d0 + q.k01, *e = d0 + q.k11;
            float s = q.s, t = q.t;
            float w00 = (1 - s) * (1 - t), w10 = s * (1 - t), w01 = (1 - s) * t, w11 = s * t;
            float *out = d + 3 * ((size_t)j * (size_t)dw + (size_t)i);
            for (int ch = 0; ch < 3; ch++) {
                out[ch] = w00 * a[ch] + w10 * b[ch] + w01 * c[ch] + w11 * e[ch];
                after[ch] += out[ch];
            }
        }
    for (int ch = 0; ch < 3; ch++)
        scale[ch] = after[ch] > 1e-12 && before[ch] > 0.0
                        ? (float)(before[ch] / after[ch]) : 1.0f;
}

/* ---- step ---------------------------------------------------------------- */

void fluid_step(struct fluid *f)
{
    const struct fluid_params *p = &f->prm;
    float dt = p->dt;
    confine_vorticity(f);
    advect_velocity(f);
    if (p->viscosity > 0.0f) {
        float a = p->viscosity * dt;
        diffuse(f->u, f->u0, f->nx + 1, f->ny, 1, a, true, false);
        diffuse(f->v, f->v0, f->nx, f->ny + 1, 1, a, false, true);
    }
    fluid_project(f);
    /* Dissipation, and a bound: nothing crosses more than the box in one step
     * (a run-away vorticity or force setting saturates instead of overflowing). */
    float k = p->dissipation > 0.0f ? 1.0f / (1.0f + p->dissipation * dt) : 1.0f;
    float vmax = (float)(f->nx > f->ny ? f->nx : f->ny) / fmaxf(dt, 1e-6f);
    size_t nu = (size_t)(f->nx + 1) * (size_t)f->ny, nv = (size_t)f->nx * (size_t)(f->ny + 1);
    for (size_t i = 0; i < nu; i++)
        f->u[i] = clampf(f->u[i] * k, -vmax, vmax);
    for (size_t i = 0; i < nv; i++)
        f->v[i] = clampf(f->v[i] * k, -vmax, vmax);
    f->diffuse_sweeps = 0;
    if (p->diffusion > 0.0f)
        f->diffuse_sweeps = diffuse(f->dye, f->dye0, f->dw, f->dh, 3,
                                     p->diffusion * dt, false, false);
    float scale[3];
    advect_dye(f, scale);
    float fade = p->decay > 0.0f ? expf(-p->decay * dt) : 1.0f;
    size_t nd = 3 * (size_t)f->dw * (size_t)f->dh;
    for (size_t i = 0; i < nd; i += 3) {
        f->dye[i] *= fade * scale[0];
        f->dye[i + 1] *= fade * scale[1];
        f->dye[i + 2] *= fade * scale[2];
    }
}

/* ---- splats, resize, statistics ------------------------------------------ */

void fluid_splat(struct fluid *f, float x, float y, float r, float vx, float vy,
                 float swirl, const float rgb[3])
{
    if (!isfinite(x) || !isfinite(y) || !(r > 0.0f) || !isfinite(r))
        return;
    float sx = (float)f->nx / (float)f->dw, sy = (float)f->ny / (float)f->dh;
    /* Velocity, in velocity cells. */
    float cx = x * sx, cy = y * sy, rv = r * 0.5f * (sx + sy);
    float inv = 1.0f / (rv * rv), ext = 3.0f * rv;
    const float swirl_norm = 2.3316f; /* 1 / max of q exp(-q^2) */
    vx = clampf(vx, -1e6f, 1e6f) * sx;
    vy = clampf(vy, -1e6f, 1e6f) * sy;
    swirl = clampf(swirl, -1e6f, 1e6f) * 0.5f * (sx + sy);
    int i0 = clampi((int)floorf(cx - ext), 0, f->nx), i1 = clampi((int)ceilf(cx + ext), 0, f->nx);
    int j0 = clampi((int)floorf(cy - ext), 0, f->ny), j1 = clampi((int)ceilf(cy + ext), 0, f->ny);
    for (int j = j0; j < j1 && j < f->ny; j++)
        for (int i = i0 > 1 ? i0 : 1; i <= i1 && i < f->nx; i++) {
            float dx = (float)i - cx, dy = (float)j + 0.5f - cy, d2 = dx * dx + dy * dy;
            float w = expf(-d2 * inv), d = sqrtf(d2);
            float tang = d > 1e-6f ? swirl * swirl_norm * (d / rv) * w * (dy / d) : 0.0f;
            U(f, i, j) += vx * w + tang;
        }
    for (int j = j0 > 1 ? j0 : 1; j <= j1 && j < f->ny; j++)
        for (int i = i0; i < i1 && i < f->nx; i++) {
            float dx = (float)i + 0.5f - cx, dy = (float)j - cy, d2 = dx * dx + dy * dy;
            float w = expf(-d2 * inv), d = sqrtf(d2);
            float tang = d > 1e-6f ? swirl * swirl_norm * (d / rv) * w * (-dx / d) : 0.0f;
            V(f, i, j) += vy * w + tang;
        }
    if (!rgb)
        return;
    float rinv = 1.0f / (r * r), rext = 3.0f * r;
    int a0 = clampi((int)floorf(x - rext), 0, f->dw), a1 = clampi((int)ceilf(x + rext), 0, f->dw);
    int b0 = clampi((int)floorf(y - rext), 0, f->dh), b1 = clampi((int)ceilf(y + rext), 0, f->dh);
    for (int j = b0; j < b1; j++)
        for (int i = a0; i < a1; i++) {
            float dx = (float)i + 0.5f - x, dy = (float)j + 0.5f - y;
            float w = expf(-(dx * dx + dy * dy) * rinv);
            float *d = f->dye + 3 * ((size_t)j * (size_t)f->dw + (size_t)i);
            d[0] += rgb[0] * w;
            d[1] += rgb[1] * w;
            d[2] += rgb[2] * w;
        }
}

int fluid_resize(struct fluid *f, int nx, int ny, int dw, int dh)
{
    if (!sizes_ok(nx, ny, dw, dh))
        return -1;
    if (nx == f->nx && ny == f->ny && dw == f->dw && dh == f->dh)
        return 0;
    struct fluid old = *f;
    f->nx = nx, f->ny = ny, f->dw = dw, f->dh = dh;
    f->nlevels = 0;
    if (arrays_alloc(f) != 0) { /* out of memory: keep the old grids */
        *f = old;
        return -1;
    }
    float ax = (float)old.nx / (float)nx, ay = (float)old.ny / (float)ny;
    for (int j = 0; j < ny; j++)
        for (int i = 1; i < nx; i++)
            U(f, i, j) = bilerp(old.u, old.nx + 1, old.ny, (float)i * ax,
                                ((float)j + 0.5f) * ay - 0.5f) / ax;
    for (int j = 1; j < ny; j++)
        for (int i = 0; i < nx; i++)
            V(f, i, j) = bilerp(old.v, old.nx, old.ny + 1, ((float)i + 0.5f) * ax - 0.5f,
                                (float)j * ay) / ay;
    float bx = (float)old.dw / (float)dw, by = (float)old.dh / (float)dh;
    for (int j = 0; j < dh; j++)
        for (int i = 0; i < dw; i++) {
            const struct dye_taps q = dye_taps(old.dw, old.dh, ((float)i + 0.5f) * bx - 0.5f,
                                               ((float)j + 0.5f) * by - 0.5f);
            const float *a = old.dye + q.k00, *b = old.dye + q.k10;
            const float *c = old.dye + q.k01, *e = old.dye + q.k11;
            float *out = f->dye + 3 * ((size_t)j * (size_t)dw + (size_t)i);
            for (int ch = 0; ch < 3; ch++) { /* along x, then along y */
                float top = a[ch] + (b[ch] - a[ch]) * q.s;
                float bot = c[ch] + (e[ch] - c[ch]) * q.s;
                out[ch] = top + (bot - top) * q.t;
            }
        }
    arrays_free(&old);
    fluid_project(f);
    return 0;
}

float fluid_total_dye(const struct fluid *f)
{
    size_t n = 3 * (size_t)f->dw * (size_t)f->dh;
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += f->dye[i];
    return (float)(s / (double)((size_t)f->dw * (size_t)f->dh));
}

float fluid_kinetic_energy(const struct fluid *f)
{
    int nx = f->nx, ny = f->ny;
    float sx = (float)nx / (float)f->dw, sy = (float)ny / (float)f->dh;
    double s = 0.0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double uc = 0.5 * ((double)U(f, i, j) + (double)U(f, i + 1, j)) / sx;
            double vc = 0.5 * ((double)V(f, i, j) + (double)V(f, i, j + 1)) / sy;
            s += 0.5 * (uc * uc + vc * vc);
        }
    return (float)(s / (double)((size_t)nx * (size_t)ny));
}
