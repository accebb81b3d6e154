/*
 * fluid_advect.c — the dye solver's passes around the projection: vorticity
 * confinement, self-advection of the velocity, implicit diffusion, and the dye's
 * advection, rescale and decay (grids in fluid_internal.h).
 */
#include "fluid_internal.h"

#include <math.h>
#include <string.h>

enum { DIFFUSE_MAX_SWEEPS = 40 };
#define DIFFUSE_TOL 1e-4f  /* stop diffusing when the largest update is this small */

/* ---- sampling the velocity ------------------------------------------------ */

/* Velocity (velocity cells/s) at a point in velocity cells. */
static inline void velocity_at(const float *restrict u, const float *restrict v, int nx, int ny,
                               float x, float y, float *vx, float *vy)
{
    *vx = fluid_bilerp(u, nx + 1, ny, x, y - 0.5f);
    *vy = fluid_bilerp(v, nx, ny + 1, x - 0.5f, y);
}

/* Where the fluid at (x,y), moving at (ax,ay) there, came from dt ago (midpoint
 * rule), kept in the box. */
static inline void backtrace_from(const float *restrict u, const float *restrict v, int nx,
                                  int ny, float dt, float ax, float ay, float *x, float *y)
{
    float bx, by;
    velocity_at(u, v, nx, ny, *x - 0.5f * dt * ax, *y - 0.5f * dt * ay, &bx, &by);
    *x = fluid_clamp(*x - dt * bx, 0.0f, (float)nx);
    *y = fluid_clamp(*y - dt * by, 0.0f, (float)ny);
}

/* ---- vorticity confinement: f = eps (N x w), N = grad|w| / |grad|w|| ------ */

/* Curl at cell (i,j) by differences across the neighbours il..ir, jt..jb. */
static inline float curl_at(const struct fluid *f, int i, int il, int ir, int j, int jt, int jb)
{
    float vr = 0.5f * (V(f, ir, j) + V(f, ir, j + 1));
    float vl = 0.5f * (V(f, il, j) + V(f, il, j + 1));
    float ub = 0.5f * (U(f, i, jb) + U(f, i + 1, jb));
    float ut = 0.5f * (U(f, i, jt) + U(f, i + 1, jt));
    return (vr - vl) / (float)(ir - il) - (ub - ut) / (float)(jb - jt);
}

static void curl_band(void *arg, int band, int nbands)
{
    const struct fluid *f = arg;
    int nx = f->nx, ny = f->ny, lo, hi;
    pool_span(ny, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++) {
        int jt = j > 0 ? j - 1 : j, jb = j < ny - 1 ? j + 1 : j;
        float *w = f->curl + (size_t)j * (size_t)nx;
        w[0] = curl_at(f, 0, 0, 1, j, jt, jb); /* nx >= 3 here */
        for (int i = 1; i < nx - 1; i++)
            w[i] = curl_at(f, i, i - 1, i + 1, j, jt, jb);
        w[nx - 1] = curl_at(f, nx - 1, nx - 2, nx - 1, j, jt, jb);
    }
}

/* The force on the cells of row j (zero on the cells along the walls). */
static void force_row(const float *curl, int nx, int ny, int j, float eps, float *fx, float *fy)
{
    fx[0] = fy[0] = fx[nx - 1] = fy[nx - 1] = 0.0f;
    if (j == 0 || j == ny - 1) {
        memset(fx, 0, (size_t)nx * sizeof(float));
        memset(fy, 0, (size_t)nx * sizeof(float));
        return;
    }
    const float *w = curl + (size_t)j * (size_t)nx;
    for (int i = 1; i < nx - 1; i++) {
        float gx = 0.5f * (fabsf(w[i + 1]) - fabsf(w[i - 1]));
        float gy = 0.5f * (fabsf(w[i + nx]) - fabsf(w[i - nx]));
        float len = sqrtf(gx * gx + gy * gy) + 1e-6f;
        fx[i] = eps * (gy / len) * w[i];
        fy[i] = -eps * (gx / len) * w[i];
    }
}

/* u0,v0 rows of the band = u,v + dt times the force averaged onto the faces.
 * A v face needs the force of the row above, which belongs to the band before
 * at the band's first row: that row's force is worked out again here. */
static void confine_band(void *arg, int band, int nbands)
{
    const struct fluid *f = arg;
    int nx = f->nx, ny = f->ny, lo, hi;
    float eps = f->prm.vorticity, h = f->prm.dt * 0.5f;
    float fx[FLUID_MAX_N], fy_a[FLUID_MAX_N], fy_b[FLUID_MAX_N];
    float *above = fy_a, *here = fy_b;
    pool_span(ny, band, nbands, &lo, &hi);
    if (lo > 0 && lo < hi)
        force_row(f->curl, nx, ny, lo - 1, eps, fx, above);
    for (int j = lo; j < hi; j++) {
        force_row(f->curl, nx, ny, j, eps, fx, here);
        const float *u = f->u + (size_t)j * (size_t)(nx + 1);
        float *u0 = f->u0 + (size_t)j * (size_t)(nx + 1);
        u0[0] = u[0], u0[nx] = u[nx];
        for (int i = 1; i < nx; i++)
            u0[i] = u[i] + h * (fx[i - 1] + fx[i]);
        const float *v = f->v + (size_t)j * (size_t)nx;
        float *v0 = f->v0 + (size_t)j * (size_t)nx;
        if (j == 0)
            memcpy(v0, v, (size_t)nx * sizeof(float));
        else
            for (int i = 0; i < nx; i++)
                v0[i] = v[i] + h * (above[i] + here[i]);
        float *t = above;
        above = here, here = t;
    }
    if (hi == ny) /* the bottom wall's faces */
        memcpy(f->v0 + (size_t)ny * (size_t)nx, f->v + (size_t)ny * (size_t)nx,
               (size_t)nx * sizeof(float));
}

static void copy_band(void *arg, int band, int nbands)
{
    const struct fluid *f = arg;
    int nx = f->nx, ny = f->ny, lo, hi;
    pool_span(ny, band, nbands, &lo, &hi);
    size_t w = (size_t)(nx + 1);
    memcpy(f->u0 + (size_t)lo * w, f->u + (size_t)lo * w, (size_t)(hi - lo) * w * sizeof(float));
    pool_span(ny + 1, band, nbands, &lo, &hi);
    w = (size_t)nx;
    memcpy(f->v0 + (size_t)lo * w, f->v + (size_t)lo * w, (size_t)(hi - lo) * w * sizeof(float));
}

void fluid_confine_and_copy(struct fluid *f)
{
    size_t cells = (size_t)f->nx * (size_t)f->ny;
    if (!(f->prm.vorticity > 0.0f) || f->nx < 3 || f->ny < 3 || f->nx > FLUID_MAX_N) {
        fluid_bands(f, cells, copy_band, f);
        return;
    }
    fluid_bands(f, cells, curl_band, f);
    fluid_bands(f, cells, confine_band, f);
}

/* ---- self-advection ------------------------------------------------------- */

/* At a face its own component is known and the other is the mean of the four
 * faces around it, so the first stage of the back-trace needs no interpolation.
 * One row of faces a loop, reading only u0, v0 and writing only out: it
 * vectorises (the bilinear taps become gathers). */
SIMD_NOINLINE static void advect_u_row(float *restrict out, const float *restrict u0,
                                       const float *restrict v0, int nx, int ny, int j, float dt)
{
    for (int i = 1; i < nx; i++) {
        float x = (float)i, y = (float)j + 0.5f;
        const float *vv = v0 + j * nx + i;
        float ay = 0.25f * (vv[-1] + vv[0] + vv[nx - 1] + vv[nx]);
        backtrace_from(u0, v0, nx, ny, dt, u0[j * (nx + 1) + i], ay, &x, &y);
        out[i] = fluid_bilerp(u0, nx + 1, ny, x, y - 0.5f);
    }
}

SIMD_NOINLINE static void advect_v_row(float *restrict out, const float *restrict u0,
                                       const float *restrict v0, int nx, int ny, int j, float dt)
{
    const float *ua = u0 + (j - 1) * (nx + 1), *ub = u0 + j * (nx + 1), *vr = v0 + j * nx;
    for (int i = 0; i < nx; i++) {
        float x = (float)i + 0.5f, y = (float)j;
        float ax = 0.25f * (ub[i] + ub[i + 1] + ua[i] + ua[i + 1]);
        backtrace_from(u0, v0, nx, ny, dt, ax, vr[i], &x, &y);
        out[i] = fluid_bilerp(v0, nx, ny + 1, x - 0.5f, y);
    }
}

static void advect_velocity_band(void *arg, int band, int nbands)
{
    struct fluid *f = arg;
    int nx = f->nx, ny = f->ny, lo, hi;
    pool_span(ny, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++)
        advect_u_row(f->u + (size_t)j * (size_t)(nx + 1), f->u0, f->v0, nx, ny, j, f->prm.dt);
    pool_span(ny + 1, band, nbands, &lo, &hi);
    for (int j = lo > 1 ? lo : 1; j < hi && j < ny; j++)
        advect_v_row(f->v + (size_t)j * (size_t)nx, f->u0, f->v0, nx, ny, j, f->prm.dt);
}

void fluid_advect_velocity(struct fluid *f)
{
    fluid_bands(f, (size_t)f->nx * (size_t)f->ny, advect_velocity_band, f);
}

/* ---- implicit diffusion ---------------------------------------------------- */

struct diffuse_job {
    float *x, *x0;
    int w, h, nc;
    float a;
    int i0, i1, j0, j1; /* the cells that move (the rest are walls) */
    int colour;         /* this pass: cells with (i + j) % 2 == colour */
    float out[FLUID_BANDS]; /* per band: the largest |x| (prep), update (sweep) */
};

static void diffuse_prep_band(void *arg, int band, int nbands)
{
    struct diffuse_job *d = arg;
    int lo, hi;
    pool_span(d->h, band, nbands, &lo, &hi);
    size_t row = (size_t)d->w * (size_t)d->nc, k0 = (size_t)lo * row, k1 = (size_t)hi * row;
    float m = 0.0f;
    for (size_t k = k0; k < k1; k++)
        m = fmaxf(m, fabsf(d->x[k]));
    memcpy(d->x0 + k0, d->x + k0, (k1 - k0) * sizeof(float));
    d->out[band] = m;
}

static void diffuse_sweep_band(void *arg, int band, int nbands)
{
    struct diffuse_job *d = arg;
    int w = d->w, h = d->h, nc = d->nc, lo, hi;
    float *x = d->x, a = d->a, change = 0.0f;
    const float *x0 = d->x0;
    pool_span(h, band, nbands, &lo, &hi);
    for (int j = lo > d->j0 ? lo : d->j0; j < hi && j < d->j1; j++) {
        int i = d->i0 + ((d->i0 + j + d->colour) & 1);
        for (; i < d->i1; i += 2)
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
    }
    d->out[band] = change;
}

static float band_max(const float *out)
{
    float m = 0.0f;
    for (int b = 0; b < FLUID_BANDS; b++)
        m = fmaxf(m, out[b]);
    return m;
}

/*
 * Implicit diffusion (1 + n a) x - a sum(x_nb) = x0 by red-black Gauss-Seidel
 * (the cells of one colour only see the other's, so a colour's bands are
 * independent) on a w x h grid of `nc` interleaved channels; rows/columns marked
 * fixed keep their values (walls), missing neighbours are left out (no flux).
 * Stops when the largest update is below DIFFUSE_TOL times the field's scale; x0
 * is scratch of the same size. Returns the sweeps taken.
 */
int fluid_diffuse(const struct fluid *f, float *x, float *x0, int w, int h, int nc, float a,
                  bool fix_cols, bool fix_rows)
{
    struct diffuse_job d = {x, x0, w, h, nc, a, fix_cols ? 1 : 0, fix_cols ? w - 1 : w,
                            fix_rows ? 1 : 0, fix_rows ? h - 1 : h, 0, {0}};
    size_t cells = (size_t)w * (size_t)h * (size_t)nc;
    fluid_bands(f, cells, diffuse_prep_band, &d);
    float scale = fmaxf(1e-6f, band_max(d.out));
    int sweeps = 0;
    for (; sweeps < DIFFUSE_MAX_SWEEPS && !sim_stopped(f->prm.stop); sweeps++) {
        float change = 0.0f;
        for (d.colour = 0; d.colour < 2; d.colour++) {
            fluid_bands(f, cells, diffuse_sweep_band, &d);
            change = fmaxf(change, band_max(d.out));
        }
        if (change <= DIFFUSE_TOL * scale) {
            sweeps++;
            break;
        }
    }
    return sweeps;
}

/* ---- dye -------------------------------------------------------------------- */

struct dye_job {
    struct fluid *f;
    double before[FLUID_BANDS][3], after[FLUID_BANDS][3]; /* per band and channel */
    float keep[3]; /* decay pass: factor per channel */
};

enum { DYE_CHUNK = 128 }; /* cells whose feet are found before they are sampled */

/* The grids of a dye pass: velocity nx x ny, dye dw x dh, dt. */
struct dye_grid {
    int nx, ny, dw, dh;
    float dt;
};

/* Where the dye at cells i0..i1-1 of dye row j came from, in dye-node
 * coordinates (px, py). One loop of back-traces over arrays passed as
 * parameters: it vectorises. */
SIMD_NOINLINE static void dye_feet(const float *restrict u, const float *restrict v,
                                   struct dye_grid g, int j, int i0, int i1,
                                   float *restrict px, float *restrict py)
{
    int nx = g.nx, ny = g.ny;
    if (g.dw == nx && g.dh == ny) { /* a cell's velocity is the mean of its faces */
        for (int i = i0; i < i1; i++) {
            float x = (float)i + 0.5f, y = (float)j + 0.5f;
            const float *uu = u + j * (nx + 1) + i, *vv = v + j * nx + i;
            backtrace_from(u, v, nx, ny, g.dt, 0.5f * (uu[0] + uu[1]), 0.5f * (vv[0] + vv[nx]),
                           &x, &y);
            px[i - i0] = x - 0.5f, py[i - i0] = y - 0.5f;
        }
        return;
    }
    float sx = (float)nx / (float)g.dw, sy = (float)ny / (float)g.dh;
    float isx = (float)g.dw / (float)nx, isy = (float)g.dh / (float)ny;
    for (int i = i0; i < i1; i++) {
        float x = ((float)i + 0.5f) * sx, y = ((float)j + 0.5f) * sy, ax, ay;
        velocity_at(u, v, nx, ny, x, y, &ax, &ay);
        backtrace_from(u, v, nx, ny, g.dt, ax, ay, &x, &y);
        px[i - i0] = x * isx - 0.5f, py[i - i0] = y * isy - 0.5f;
    }
}

/* One semi-Lagrangian pass for all three channels over the band's rows, from
 * dye0 into dye; the totals of both go to the band's slots. */
static void advect_dye_band(void *arg, int band, int nbands)
{
    struct dye_job *job = arg;
    const struct fluid *f = job->f;
    int dw = f->dw, dh = f->dh, lo, hi;
    const float *d0 = f->dye0;
    const struct dye_grid g = {f->nx, f->ny, dw, dh, f->prm.dt};
    float px[DYE_CHUNK], py[DYE_CHUNK];
    double before[3] = {0, 0, 0}, after[3] = {0, 0, 0};
    pool_span(dh, band, nbands, &lo, &hi);
    for (int j = lo; j < hi; j++)
        for (int c0 = 0; c0 < dw; c0 += DYE_CHUNK) {
            int c1 = c0 + DYE_CHUNK < dw ? c0 + DYE_CHUNK : dw;
            dye_feet(f->u, f->v, g, j, c0, c1, px, py);
            float *out = f->dye + 3 * ((size_t)j * (size_t)dw + (size_t)c0);
            const float *in = d0 + 3 * ((size_t)j * (size_t)dw + (size_t)c0);
            for (int i = 0; i < c1 - c0; i++) {
                const struct dye_taps q = fluid_dye_taps(dw, dh, px[i], py[i]);
                const float *a = d0 + q.k00, *b = d0 + q.k10, *c = d0 + q.k01, *e = d0 + q.k11;
                float s = q.s, t = q.t;
                float w00 = (1 - s) * (1 - t), w10 = s * (1 - t), w01 = (1 - s) * t, w11 = s * t;
                for (int ch = 0; ch < 3; ch++)
                    out[3 * i + ch] = w00 * a[ch] + w10 * b[ch] + w01 * c[ch] + w11 * e[ch];
            }
            for (int k = 0; k < 3 * (c1 - c0); k += 3)
                for (int ch = 0; ch < 3; ch++)
                    before[ch] += in[k + ch], after[ch] += out[k + ch];
        }
    for (int ch = 0; ch < 3; ch++)
        job->before[band][ch] = before[ch], job->after[band][ch] = after[ch];
}

static void decay_band(void *arg, int band, int nbands)
{
    const struct dye_job *job = arg;
    const struct fluid *f = job->f;
    int lo, hi;
    pool_span(f->dh, band, nbands, &lo, &hi);
    float k0 = job->keep[0], k1 = job->keep[1], k2 = job->keep[2];
    float *d = f->dye;
    for (size_t k = 3 * (size_t)lo * (size_t)f->dw; k < 3 * (size_t)hi * (size_t)f->dw; k += 3) {
        d[k] *= k0;
        d[k + 1] *= k1;
        d[k + 2] *= k2;
    }
}

/*
 * The dye moves by one semi-Lagrangian pass (dye0 and dye swap first: dye0 is
 * what was). Bilinear back-tracing is not exactly conservative (it loses about
 * 1-2 % of the dye per 100 steps of hard stirring); the flow is divergence-free
 * and the box closed, so each channel is scaled back to the total it had before
 * the pass, in the same pass as the decay.
 */
void fluid_advect_dye(struct fluid *f)
{
    float *t = f->dye;
    f->dye = f->dye0, f->dye0 = t;
    struct dye_job job;
    job.f = f;
    size_t cells = (size_t)f->dw * (size_t)f->dh;
    fluid_bands(f, cells, advect_dye_band, &job);
    float fade = f->prm.decay > 0.0f ? expf(-f->prm.decay * f->prm.dt) : 1.0f;
    for (int ch = 0; ch < 3; ch++) {
        double before = 0.0, after = 0.0;
        for (int b = 0; b < FLUID_BANDS; b++)
            before += job.before[b][ch], after += job.after[b][ch];
        float scale = after > 1e-12 && before > 0.0 ? (float)(before / after) : 1.0f;
        job.keep[ch] = fade * scale;
    }
    fluid_bands(f, cells, decay_band, &job);
}
