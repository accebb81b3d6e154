/*
 * test_pbf_scene.c — the pbf pointer and scene: the solver's grab, drag, throw
 * and push (pbf_nearest, pbf_grab, pbf_grab_near, pbf_move_grab, pbf_release,
 * pbf_push), and the scene as the app drives it: how much water it makes for a
 * terminal, what a left drag brings along, the pour key and its cap.
 *
 * Solver tests use the seed preset (pbf.html's 30 x 30 block in a 90 x 90 box);
 * particles are followed by id (pbf.h: slots change at every re-sort).
 */
#include "buf.h"
#include "e2e.h"
#include "fixtures.h"
#include "image.h"
#include "pbf.h"
#include "scene.h"
#include "swirl.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Pointer ------------------------------------------------------------------ */

TEST(pbf_nearest_finds_the_right_particle)
{
    /* The initial block is a square lattice of spacing d = 2r from
     * (-box_w d/2 + d + r, d + r) (pbf.h), row by row: particle row*block_w + col
     * sits at a known place, and so do its neighbours. */
    struct pbf s;
    fx_pbf_seed(&s);
    const float r = s.prm.radius, d = 2.0f * r;
    const float x0 = -0.5f * FX_SEED_BOX * d + d + r, y0 = d + r;
    const int row = 12, col = 7, k = row * FX_SEED_BLOCK + col;
    const float kx = x0 + col * d, ky = y0 + row * d;
    CHECK_NEAR(s.x[k], kx, 1e-6);
    CHECK_NEAR(s.y[k], ky, 1e-6);

    /* On a particle: that one. */
    CHECK_INT(pbf_nearest(&s, kx, ky, 0.1f * d), k);
    CHECK_INT(pbf_nearest(&s, x0, y0, 0.1f * d), 0);
    /* Between two neighbours: the nearer, on either side of the middle. */
    CHECK_INT(pbf_nearest(&s, kx + 0.4f * d, ky, d), k);
    CHECK_INT(pbf_nearest(&s, kx + 0.6f * d, ky, d), k + 1);
    CHECK_INT(pbf_nearest(&s, kx, ky - 0.6f * d, d), k - FX_SEED_BLOCK);
    /* Inside a lattice cell: the nearest of its four corners (0.64 d away; the
     * others are 0.71 d and 0.78 d away). */
    CHECK_INT(pbf_nearest(&s, kx - 0.45f * d, ky + 0.55f * d, d), k + FX_SEED_BLOCK);
    /* maxdist bounds the search. */
    CHECK_INT(pbf_nearest(&s, kx + 0.3f * d, ky, 0.2f * d), -1);
    CHECK_INT(pbf_nearest(&s, kx + 0.3f * d, ky, 0.35f * d), k);
    /* Only water: on a wall particle, the water particle nearest it. */
    CHECK_INT(pbf_nearest(&s, s.xmin + d, 0.0f, 2.0f * d), 0);
    /* Outside the block's reach, or no valid radius: none. */
    CHECK_INT(pbf_nearest(&s, 100.0f, 100.0f, 1.0f), -1);
    CHECK_INT(pbf_nearest(&s, kx, ky, -1.0f), -1);
    CHECK_INT(pbf_nearest(&s, kx, ky, NAN), -1);

    /* Once the water has moved: the particle the pointer is on. */
    for (int step = 0; step < 50; step++)
        pbf_step(&s);
    CHECK_INT(pbf_nearest(&s, s.x[321] + 0.001f, s.y[321], 0.01f), 321);
    pbf_free(&s);
}

TEST(pbf_grab_and_release)
{
    struct pbf s;
    fx_pbf_seed(&s);
    for (int step = 0; step < 30; step++)
        pbf_step(&s);
    const int k0 = pbf_nearest(&s, -1.5f, 0.5f, 0.1f);
    CHECK(k0 >= 0 && k0 < s.nfluid);
    if (k0 < 0) {
        pbf_free(&s);
        return;
    }
    const int pid = s.id[k0]; /* the particle, wherever the re-sorts put it */
#define k (s.slot[pid])
    const float gx = 0.5f, gy = 1.5f;
    pbf_grab(&s, k, gx, gy);
    CHECK_INT(s.grabbed, k);
    for (int step = 0; step < 10; step++) {
        pbf_step(&s);
        CHECK(s.x[k] == gx && s.y[k] == gy);
    }
    /* Dragging: the particle follows, its velocity is the pointer's. */
    pbf_grab(&s, k, gx + 0.01f, gy - 0.005f);
    pbf_step(&s);
    CHECK(s.x[k] == gx + 0.01f && s.y[k] == gy - 0.005f);
    CHECK_NEAR(s.vx[k], 0.01f / s.prm.dt, 1e-3);
    CHECK_NEAR(s.vy[k], -0.005f / s.prm.dt, 1e-3);
    /* A grab point outside the box is held just inside it. */
    pbf_grab(&s, k, 100.0f, -100.0f);
    pbf_step(&s);
    CHECK(s.x[k] == s.xmax - s.prm.radius && s.y[k] == s.ymin + s.prm.radius);
    pbf_move_grab(&s, -100.0f, NAN); /* unchecked: the step holds it inside */
    pbf_step(&s);
    CHECK(s.x[k] == s.xmin + s.prm.radius && s.y[k] == s.ymin + s.prm.radius);
    CHECK_INT(fx_pbf_nonfinite(&s), 0);
    pbf_grab(&s, k, gx, gy);
    pbf_step(&s);
    /* Release: thrown with the given velocity, then free again. */
    pbf_release(&s, 1.5f, -2.0f);
    CHECK_INT(s.grabbed, -1);
    CHECK(s.vx[k] == 1.5f && s.vy[k] == -2.0f);
    pbf_step(&s);
    CHECK(s.x[k] > gx + 0.003f);
    CHECK(s.y[k] < gy - 0.003f);
    pbf_release(&s, 9.0f, 9.0f); /* nothing held: no effect */
    CHECK(s.vx[k] != 9.0f);
#undef k
    pbf_free(&s);
}

TEST(pbf_move_grab_moves_the_held_particle)
{
    struct pbf s, twin;
    fx_pbf_seed(&s);
    fx_pbf_seed(&twin);
    for (int step = 0; step < 30; step++) {
        pbf_step(&s);
        pbf_step(&twin);
    }
    const int pid = 5 * FX_SEED_BLOCK + 7; /* the particle, wherever the re-sorts put it */
#define k (s.slot[pid])
    pbf_grab(&s, k, s.x[k], s.y[k]);
    pbf_step(&s);
    /* Each step ends with the particle at the target it was moved to, its
     * velocity that of the target. */
    const float tx[] = {-1.80f, -1.77f, -1.75f, -1.75f}, ty[] = {0.35f, 0.38f, 0.37f, 0.37f};
    for (int n = 0; n < 4; n++) {
        const float x0 = s.x[k], y0 = s.y[k];
        pbf_move_grab(&s, tx[n], ty[n]);
        CHECK(s.grab_x == tx[n] && s.grab_y == ty[n]);
        pbf_step(&s);
        CHECK_INT(s.grabbed, k);
        CHECK(s.x[k] == tx[n] && s.y[k] == ty[n]);
        CHECK_NEAR(s.vx[k], (tx[n] - x0) / s.prm.dt, 1e-3);
        CHECK_NEAR(s.vy[k], (ty[n] - y0) / s.prm.dt, 1e-3);
    }
    /* A target outside the box holds it just inside, as pbf_grab does. */
    pbf_move_grab(&s, -100.0f, 100.0f);
    pbf_step(&s);
    CHECK(s.x[k] == s.xmin + s.prm.radius && s.y[k] == s.ymax - s.prm.radius);
    pbf_release(&s, 0.0f, 0.0f);
#undef k
    pbf_free(&s);

    /* With nothing held it moves nothing. */
    struct pbf moved;
    fx_pbf_seed(&moved);
    for (int step = 0; step < 30; step++)
        pbf_step(&moved);
    pbf_move_grab(&moved, -1.0f, 0.5f);
    pbf_step(&moved);
    pbf_step(&twin);
    CHECK_INT(moved.grabbed, -1);
    const size_t bytes = (size_t)twin.n * sizeof(float);
    CHECK(memcmp(moved.x, twin.x, bytes) == 0 && memcmp(moved.y, twin.y, bytes) == 0);
    pbf_free(&moved);
    pbf_free(&twin);
}

TEST(pbf_grabbed_particle_is_fixed_during_the_solve)
{
    /* A particle held down on the floor, r above the wall particles, is strongly
     * compressed and would be pushed up hard by every correction. The solver must
     * keep it at the grab point throughout, so the error it measures last (at the
     * positions it leaves) is the error recomputed afterwards. Were it corrected
     * while solving and put back afterwards, the two would differ by ~0.2 kg/m^3;
     * 0.05 leaves room for fresh neighbour lists and summation order. */
    struct pbf s;
    struct pbf_params p;
    pbf_params_seed(&p);
    p.seed_quirk = false;
    p.max_iter = 2;
    fx_pbf_init(&s, &p, FX_SEED_BLOCK, FX_SEED_BLOCK, FX_SEED_BOX, FX_SEED_BOX);
    for (int step = 0; step < 200; step++)
        pbf_step(&s);
    const int k = pbf_nearest(&s, -1.0f, 0.3f, 1.0f);
    CHECK(k >= 0);
    pbf_grab(&s, k, -1.0f, 0.0f);
    for (int step = 0; step < 4; step++) {
        pbf_step(&s);
        CHECK(s.x[k] == -1.0f && s.y[k] == s.ymin + s.prm.radius);
        CHECK_NEAR(s.avg_err, pbf_density_err_pct(&s) * 0.01f * p.density0, 0.05);
    }
    pbf_free(&s);
}

TEST(pbf_push_falls_off_smoothly)
{
    struct pbf s;
    fx_pbf_seed(&s);
    const int k = 15 * FX_SEED_BLOCK + 15;
    const float radius = 0.2f;
    pbf_push(&s, s.x[k], s.y[k], radius, 1.0f, -0.5f);
    CHECK(s.vx[k] == 1.0f && s.vy[k] == -0.5f);
    const int pushed[] = {k + 1, k + 2, k + 3};
    float prev = 1.0f;
    for (int n = 0; n < 3; n++) {
        const int i = pushed[n];
        const float d = s.x[i] - s.x[k], t = 1.0f - (d / radius) * (d / radius);
        CHECK_NEAR(s.vx[i], t * t, 1e-4);
        CHECK(s.vx[i] < prev);
        prev = s.vx[i];
    }
    const int far = k + 5; /* 5 diameters, beyond the radius */
    CHECK(s.vx[far] == 0.0f && s.vy[far] == 0.0f);
    CHECK(s.vx[0] == 0.0f);
    pbf_free(&s);
}

TEST(pbf_add_water_grows_the_water)
{
    struct pbf s;
    fx_pbf_seed(&s);
    for (int step = 0; step < 10; step++)
        pbf_step(&s);
    const int nf = s.nfluid, nb = s.n - s.nfluid;
    const float wall_x = s.x[s.nfluid + 5], wall_y = s.y[s.nfluid + 5];
    float x[50], y[50];
    for (int q = 0; q < 50; q++) {
        x[q] = 0.5f + 0.05f * (float)(q % 10);
        y[q] = 3.0f + 0.05f * (float)(q / 10);
    }
    CHECK_INT(pbf_add_water(&s, x, y, 50, 0.0f, -1.0f), 0);
    CHECK_INT(s.nfluid, nf + 50);
    CHECK_INT(s.n - s.nfluid, nb);
    CHECK(s.x[s.nfluid + 5] == wall_x && s.y[s.nfluid + 5] == wall_y); /* walls moved up */
    CHECK(s.x[nf + 7] == x[7] && s.y[nf + 7] == y[7] && s.vy[nf + 7] == -1.0f);
    CHECK_INT(s.slot[nf + 7], nf + 7);
    float lowest = 10.0f;
    for (int step = 0; step < 300; step++)
        pbf_step(&s);
    for (int id = nf; id < nf + 50; id++)
        lowest = fminf(lowest, s.y[s.slot[id]]);
    CHECK(lowest < 1.0f); /* it fell into the pool */
    CHECK_INT(fx_pbf_nonfinite(&s), 0);
    CHECK_INT(pbf_add_water(&s, x, y, 0, 0.0f, 0.0f), 0);
    CHECK_INT(pbf_add_water(&s, x, y, -1, 0.0f, 0.0f), -1);
    pbf_free(&s);
}

TEST(pbf_grab_near_holds_a_handful_as_a_group)
{
    struct pbf s;
    fx_pbf_seed(&s);
    for (int step = 0; step < 100; step++)
        pbf_step(&s);
    const float px = -1.5f, py = 0.2f;
    const int n = pbf_grab_near(&s, px, py, 0.15f, 40);
    CHECK(n > 10 && n <= 40);
    CHECK_INT(s.ngrab, n);
    int ids[40];
    float ox[40], oy[40];
    for (int g = 0; g < n; g++) {
        const int i = s.grab_i[g];
        ids[g] = s.id[i];
        ox[g] = s.x[i] - px;
        oy[g] = s.y[i] - py;
        CHECK(hypotf(ox[g], oy[g]) <= 0.15f);
    }
    /* Dragged up: every one keeps its offset from the pointer. */
    int off = 0;
    for (int step = 0; step < 40; step++) {
        pbf_move_grab(&s, px + 0.01f * (float)step, py + 0.02f * (float)step);
        pbf_step(&s);
    }
    for (int g = 0; g < n; g++) {
        const int i = s.slot[ids[g]];
        off += fabsf(s.x[i] - (px + 0.39f + ox[g])) > 1e-4f ||
               fabsf(s.y[i] - (py + 0.78f + oy[g])) > 1e-4f;
    }
    CHECK_INT(off, 0);
    /* Thrown: all of them get the velocity, then fly. */
    pbf_release(&s, 3.0f, 2.0f);
    CHECK_INT(s.ngrab, 0);
    CHECK_INT(s.grabbed, -1);
    int thrown = 0;
    for (int g = 0; g < n; g++)
        thrown += s.vx[s.slot[ids[g]]] == 3.0f && s.vy[s.slot[ids[g]]] == 2.0f;
    CHECK_INT(thrown, n);
    /* Nothing within the radius: nothing held. */
    CHECK_INT(pbf_grab_near(&s, 2.0f, 4.0f, 0.05f, 40), 0);
    CHECK_INT(s.grabbed, -1);
    pbf_free(&s);
}

/* The shape of a set of particles (by id): the spread along the unit vector
 * (ux, uy) and across it (standard deviations), and the centroid. */
struct shape {
    float along, across, cx, cy;
};

static struct shape shape_of(const struct pbf *s, const int *ids, int n, float ux, float uy)
{
    double mx = 0.0, my = 0.0, aa = 0.0, bb = 0.0;
    for (int g = 0; g < n; g++) {
        mx += s->x[s->slot[ids[g]]];
        my += s->y[s->slot[ids[g]]];
    }
    mx /= n, my /= n;
    for (int g = 0; g < n; g++) {
        const double dx = s->x[s->slot[ids[g]]] - mx, dy = s->y[s->slot[ids[g]]] - my;
        const double a = dx * ux + dy * uy, b = dx * uy - dy * ux;
        aa += a * a, bb += b * b;
    }
    return (struct shape){(float)sqrt(aa / n), (float)sqrt(bb / n), (float)mx, (float)my};
}

/* A handful lifted out of the seed's pool into the air and let go there with
 * (vx, vy): rigidly (pbf_release) or thrown (pbf_throw with the scene's
 * shares); its ids into ids, its shape `steps` steps later. */
static struct shape fly(bool thrown, float vx, float vy, int steps, int *ids, int *n)
{
    struct pbf s;
    fx_pbf_seed(&s);
    for (int step = 0; step < 100; step++)
        pbf_step(&s);
    *n = pbf_grab_near(&s, -1.5f, 0.2f, 0.15f, 60);
    for (int g = 0; g < *n; g++)
        ids[g] = s.id[s.grab_i[g]];
    for (int step = 1; step <= 60; step++) /* up into the air, away from the water */
        pbf_move_grab(&s, -1.5f + 0.005f * (float)step, 0.2f + 0.03f * (float)step), pbf_step(&s);
    if (thrown)
        pbf_throw(&s, vx, vy, 0.5f, 0.4f, 0.05f);
    else
        pbf_release(&s, vx, vy);
    const float speed = hypotf(vx, vy);
    for (int step = 0; step < steps; step++)
        pbf_step(&s);
    const struct shape sh = shape_of(&s, ids, *n, vx / speed, vy / speed);
    CHECK_INT(fx_pbf_nonfinite(&s), 0);
    pbf_free(&s);
    return sh;
}

TEST(pbf_throw_draws_the_handful_out_into_a_stream)
{
    int ids[60], n, n2;
    const float vx = 4.0f, vy = 2.0f;
    /* At the release both are the same ball. */
    const struct shape r0 = fly(false, vx, vy, 0, ids, &n);
    const struct shape t0 = fly(true, vx, vy, 0, ids, &n2);
    CHECK(n > 20);
    CHECK_INT(n2, n);
    CHECK_NEAR(r0.along, t0.along, 1e-6);
    CHECK(r0.along < 1.5f * r0.across && r0.across < 1.5f * r0.along); /* round */
    /* 0.2 s on: the rigid one is still a ball, the thrown one a stream along
     * its way (its front ahead, its back behind, its sides closed in), in the
     * same place on average (the throw keeps its momentum). */
    const struct shape r = fly(false, vx, vy, 40, ids, &n);
    const struct shape t = fly(true, vx, vy, 40, ids, &n);
    CHECK_MSG(r.along < 1.3f * r0.along && r.along < 1.5f * r.across,
              "rigid: along %.3f across %.3f (at the release %.3f)", (double)r.along,
              (double)r.across, (double)r0.along);
    CHECK_MSG(t.along > 2.5f * r.along && t.along > 4.0f * t.across,
              "thrown: along %.3f across %.3f, rigid along %.3f", (double)t.along,
              (double)t.across, (double)r.along);
    const float travelled = hypotf(r.cx - r0.cx, r.cy - r0.cy);
    CHECK(travelled > 0.5f);
    CHECK_MSG(hypotf(t.cx - r.cx, t.cy - r.cy) < 0.1f * travelled,
              "centroids %.3f apart after %.3f m", (double)hypotf(t.cx - r.cx, t.cy - r.cy),
              (double)travelled);
}

TEST(pbf_throw_at_rest_is_a_release)
{
    struct pbf s;
    fx_pbf_seed(&s);
    const int n = pbf_grab_near(&s, -1.5f, 0.2f, 0.15f, 40);
    CHECK(n > 10);
    pbf_throw(&s, 0.0f, 0.0f, 0.5f, 0.4f, 0.05f);
    CHECK_INT(s.ngrab, 0);
    CHECK_INT(s.grabbed, -1);
    int moving = 0;
    for (int i = 0; i < s.nfluid; i++)
        moving += s.vx[i] != 0.0f || s.vy[i] != 0.0f;
    CHECK_INT(moving, 0);
    pbf_throw(&s, 1.0f, 1.0f, 0.5f, 0.4f, 0.05f); /* nothing held: nothing moves */
    for (int i = 0; i < s.nfluid; i++)
        moving += s.vx[i] != 0.0f || s.vy[i] != 0.0f;
    CHECK_INT(moving, 0);
    pbf_free(&s);
}

/* ---- The scene ---------------------------------------------------------------- */

static long sc_json(struct fx_pbf *x, const char *field)
{
    struct buf b;
    char key[64];
    buf_init(&b);
    scene_pbf.json(x->st, &b);
    buf_putc(&b, 0);
    snprintf(key, sizeof key, "\"%s\":", field);
    const char *at = strstr(b.p, key);
    long v = at ? strtol(at + strlen(key), NULL, 10) : -1;
    buf_free(&b);
    return v;
}

static bool is_water_px(rgb_t c)
{
    const int r = rgb_r(c), g = rgb_g(c), b = rgb_b(c);
    return b >= 100 && b > r + 50 && b > g + 20;
}

/* Water pixels of the drawn canvas within radius of (cx, cy). */
static int water_near(struct fx_pbf *x, float cx, float cy, float radius)
{
    scene_pbf.draw(x->st, &x->im);
    int n = 0;
    for (int y = 0; y < x->im.h; y++)
        for (int c = 0; c < x->im.w; c++)
            n += hypotf((float)c + 0.5f - cx, (float)y + 0.5f - cy) <= radius &&
                 is_water_px(image_get(&x->im, c, y));
    return n;
}

TEST(pbf_scene_makes_a_body_of_water_for_every_terminal)
{
    static const struct {
        int cols, rows, least;
    } size[] = {{80, 24, 1000}, {100, 30, 1500}, {200, 60, 5500}, {250, 70, 5500}};
    for (size_t k = 0; k < sizeof size / sizeof size[0]; k++) {
        struct fx_pbf x;
        if (!fx_pbf_open(&x, size[k].cols, size[k].rows, false, NULL))
            continue;
        const long n = sc_json(&x, "particles");
        CHECK_MSG(n >= size[k].least && n <= 6000, "%dx%d: %ld particles", size[k].cols,
                  size[k].rows, n);
        /* About a third of the box once it settles: the water covers a fair share
         * of the canvas, most of it in the lower half. (Under a sanitizer, only
         * for the smaller terminals: 90 frames of 6,000 particles take minutes
         * there.) */
        if (TEST_SANITIZED && size[k].cols >= 200) {
            fx_pbf_close(&x);
            continue;
        }
        fx_pbf_frames(&x, 90, false);
        int low = 0, high = 0;
        scene_pbf.draw(x.st, &x.im);
        for (int y = 0; y < x.im.h; y++)
            for (int c = 0; c < x.im.w; c++) {
                const bool w = is_water_px(image_get(&x.im, c, y));
                low += w && y >= x.im.h / 2;
                high += w && y < x.im.h / 2;
            }
        const int area = x.im.w * x.im.h;
        CHECK_MSG(low + high > area / 5 && low + high < area / 2 && high < low / 3,
                  "%dx%d: %d water pixels low, %d high of %d", size[k].cols, size[k].rows, low,
                  high, area);
        fx_pbf_close(&x);
    }
    struct fx_pbf seed;
    if (fx_pbf_open(&seed, 100, 30, true, NULL)) {
        CHECK_INT(sc_json(&seed, "particles"), 900); /* the seed page's block, as it was */
        fx_pbf_close(&seed);
    }
}

/* The first water pixel from the bottom of column c that is wet, at least
 * depth pixels under the surface: where a press lands inside the water. */
static int inside_water(struct fx_pbf *x, int c, int depth)
{
    scene_pbf.draw(x->st, &x->im);
    int top = -1;
    for (int y = 0; y < x->im.h && top < 0; y++)
        if (is_water_px(image_get(&x->im, c, y)))
            top = y;
    return top >= 0 ? top + depth : -1;
}

TEST(pbf_scene_left_drag_carries_a_handful)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false); /* settled into a pool */
    const int col = 50, row = inside_water(&x, col, 4);
    CHECK(row > 0);
    const float up = 8.0f; /* well above the water, in the air */
    CHECK_INT(water_near(&x, (float)col, up, 3.0f), 0);
    fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f, true, true, 0.0f, 0.0f);
    for (int k = 1; k <= 40; k++) /* up to the top, a pixel every step or so */
        fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f - ((float)row - up) * (float)k / 40.0f,
                true, false, 0.0f, -200.0f);
    for (int k = 0; k < 16; k++)
        fx_pbf_step(&x, (float)col + 0.5f, up + 0.5f, true, false, 0.0f, 0.0f);
    const int held = water_near(&x, (float)col + 0.5f, up + 0.5f, 6.0f);
    CHECK_MSG(held >= 30, "%d water pixels at the pointer", held);
    /* A sideways fling: a frame to the right, a frame held still (the app sees
     * a release a frame late), let go with no velocity of the pointer's own (the
     * app's is the release frame's, none): the handful flies off to the right,
     * with the speed it had in hand. */
    for (int k = 1; k <= 8; k++)
        fx_pbf_step(&x, (float)col + 0.5f + 2.0f * (float)k, up + 0.5f, true, false, 480.0f, 0.0f);
    const float at = (float)col + 16.5f;
    for (int k = 0; k < 8; k++)
        fx_pbf_step(&x, at, up + 0.5f, true, false, 0.0f, 0.0f);
    const struct pbf *sim = scene_pbf.member(x.st, "pbf");
    int ids[200];
    const int n = sim->ngrab < 200 ? sim->ngrab : 200;
    for (int g = 0; g < n; g++)
        ids[g] = sim->id[sim->grab_i[g]];
    fx_pbf_step(&x, at, up + 0.5f, false, true, 0.0f, 0.0f);
    /* Thrown as water, not as a ball: the front of the handful faster than
     * its back (by the solver's throw, pbf_throw). */
    float lo = INFINITY, hi = 0.0f;
    for (int g = 0; g < n; g++) {
        const float vx = sim->vx[sim->slot[ids[g]]];
        lo = fminf(lo, vx), hi = fmaxf(hi, vx);
    }
    CHECK_MSG(lo > 1.0f && hi > 2.0f * lo, "thrown at %.2f to %.2f m/s", (double)lo, (double)hi);
    for (int k = 0; k < 16; k++)
        fx_pbf_step(&x, at, up + 0.5f, false, false, 0.0f, 0.0f);
    const int left = water_near(&x, at, up + 0.5f, 3.0f);
    CHECK_MSG(left < held / 4, "%d of %d water pixels stayed", left, held);
    int right = 0; /* ... to the right of where it was let go, in the air */
    for (int y = 0; y < (int)up + 8; y++)
        for (int c = (int)at + 4; c < x.im.w; c++)
            right += is_water_px(image_get(&x.im, c, y));
    CHECK_MSG(right >= held / 4, "%d of %d water pixels to the right", right, held);
    fx_pbf_close(&x);
}

TEST(pbf_scene_release_after_a_pause_drops_the_water)
{
    /* Lifted, held still for a while, let go: dropped where it was, not thrown
     * with the speed of the lift. */
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false);
    const int col = 50, row = inside_water(&x, col, 4);
    const float up = 10.0f;
    fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f, true, true, 0.0f, 0.0f);
    for (int k = 1; k <= 16; k++)
        fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f - ((float)row - up) * (float)k / 16.0f,
                true, false, 0.0f, -400.0f);
    for (int k = 0; k < 24; k++)
        fx_pbf_step(&x, (float)col + 0.5f, up + 0.5f, true, false, 0.0f, 0.0f);
    struct pbf *sim = scene_pbf.member(x.st, "pbf");
    const int n = sim->ngrab;
    CHECK(n > 20);
    int ids[200];
    for (int g = 0; g < n && g < 200; g++)
        ids[g] = sim->id[sim->grab_i[g]];
    fx_pbf_step(&x, (float)col + 0.5f, up + 0.5f, false, true, 0.0f, 0.0f);
    float fastest = 0.0f;
    for (int g = 0; g < n && g < 200; g++) {
        const int i = sim->slot[ids[g]];
        fastest = fmaxf(fastest, hypotf(sim->vx[i], sim->vy[i]));
    }
    CHECK_MSG(fastest < 0.5f, "a particle left at %.2f m/s", (double)fastest);
    fx_pbf_close(&x);
}

TEST(pbf_scene_press_beside_the_water_grabs_the_nearest)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false);
    const int col = 50, top = inside_water(&x, col, 0);
    CHECK(top > 4);
    /* Two pixels (a cell) above the surface: still a handful. */
    fx_pbf_step(&x, (float)col + 0.5f, (float)top - 2.5f, true, true, 0.0f, 0.0f);
    for (int k = 1; k <= 30; k++)
        fx_pbf_step(&x, (float)col + 0.5f, (float)top - 2.5f - (float)k * 0.5f, true, false, 0.0f,
                -120.0f);
    const int held = water_near(&x, (float)col + 0.5f, (float)top - 17.5f, 6.0f);
    CHECK_MSG(held >= 20, "%d water pixels at the pointer", held);
    fx_pbf_close(&x);
}

/* A left press at canvas (ax, ay) whose step's path goes on to (bx, by): a
 * press and a quick drag that came in before one step. */
static void sc_press_along(struct fx_pbf *x, float ax, float ay, float bx, float by)
{
    float path[4] = {ax, ay, bx, by};
    struct pointer p = {.down = true, .button = 0, .pressed = true, .x0 = ax, .y0 = ay,
                        .x1 = bx, .y1 = by, .path = path, .npath = 2, .dt = 1.0f / 240.0f};
    scene_pbf.step(x->st, &p);
}

TEST(pbf_scene_press_grabs_where_it_went_down)
{
    /* A press and the drag after it in one step: the water is taken where
     * the button went down, the start of the step's path, not where the path
     * ends: down in the air and dragged into the water takes nothing, down in
     * the water and dragged out into the air takes it along. With the seed's
     * one particle and with a handful. */
    for (int seed = 0; seed < 2; seed++) {
        struct fx_pbf x;
        if (!fx_pbf_open(&x, 100, 30, seed, NULL))
            return;
        fx_pbf_frames(&x, seed ? 60 : 120, false);
        const int col = seed ? 30 : 50, row = inside_water(&x, col, 2);
        const float air = 4.5f, c = (float)col + 0.5f;
        CHECK_MSG(row > 10 && water_near(&x, c, air, 4.0f) == 0, "%s: no pool to press in",
                  seed ? "seed" : "handful");
        const struct pbf *sim = scene_pbf.member(x.st, "pbf");
        sc_press_along(&x, c, air, c, (float)row + 0.5f);
        CHECK_MSG(sim->grabbed < 0, "%s: down in the air, the water under the path's end taken",
                  seed ? "seed" : "handful");
        fx_pbf_step(&x, c, (float)row + 0.5f, false, true, 0.0f, 0.0f);
        sc_press_along(&x, c, (float)row + 0.5f, c, air);
        CHECK_MSG(sim->grabbed >= 0 && (seed || sim->ngrab > 0),
                  "%s: down in the water, nothing taken", seed ? "seed" : "handful");
        fx_pbf_close(&x);
    }
}

/* Steps with the pointer resting (no button) at canvas (px, py). */
static void sc_rest(struct fx_pbf *x, float px, float py, int steps)
{
    for (int k = 0; k < steps; k++)
        fx_pbf_step(x, px, py, false, false, 0.0f, 0.0f);
}

TEST(pbf_scene_pour_is_a_stream_from_the_top)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false);
    const long start = sc_json(&x, "particles");
    const int col = 30; /* the pointer, and the nozzle over it */
    /* Looked at: the top third of the canvas, 20 columns either side. */
    const int y_end = 20, c_beg = col - 20, c_end = col + 20;
    scene_pbf.draw(x.st, &x.im);
    int before = 0;
    for (int y = 0; y < y_end; y++)
        for (int c = c_beg; c < c_end; c++)
            before += is_water_px(image_get(&x.im, c, y));
    CHECK_INT(before, 0); /* the pool is low, the air above it clear */
    CHECK(scene_pbf.key(x.st, 'w'));
    /* Over several steps, a few particles at a time (not a block at once). */
    long last = start;
    int grew = 0;
    for (int k = 0; k < 12; k++) {
        sc_rest(&x, (float)col + 0.5f, 6.0f, 1);
        const long n = sc_json(&x, "particles");
        CHECK_MSG(n >= last && n - last <= 8, "step %d: %ld after %ld", k, n, last);
        grew += n > last;
        last = n;
    }
    CHECK_MSG(grew >= 2 && last > start && last < start + 40, "%ld after 12 steps (start %ld)",
              last, start);
    /* A while on: a narrow stream from the lid down over the pointer, taller
     * than it is wide. */
    sc_rest(&x, (float)col + 0.5f, 6.0f, 40);
    scene_pbf.draw(x.st, &x.im);
    int c0 = x.im.w, c1 = -1, r0 = x.im.h, r1 = -1;
    for (int y = 0; y < y_end; y++)
        for (int c = c_beg; c < c_end; c++)
            if (is_water_px(image_get(&x.im, c, y))) {
                c0 = c < c0 ? c : c0, c1 = c > c1 ? c : c1;
                r0 = y < r0 ? y : r0, r1 = y > r1 ? y : r1;
            }
    CHECK_MSG(r0 <= 3 && r1 - r0 >= 8, "the stream spans rows %d..%d", r0, r1);
    CHECK_MSG(c0 >= col - 4 && c1 <= col + 4 && c1 - c0 <= 6, "the stream spans columns %d..%d",
              c0, c1);
    /* It all comes out: one press is POUR_SHARE (6 %) of the start. */
    sc_rest(&x, (float)col + 0.5f, 6.0f, 400);
    CHECK_INT(sc_json(&x, "particles"), start + (long)(0.06f * (float)start));
    fx_pbf_close(&x);
}

/* The columns of the top third of the canvas that hold water after a pour of
 * `steps` steps with the pointer resting at (px, py): [*c0, *c1]. */
static void pour_columns(struct fx_pbf *x, float px, float py, int steps, int *c0, int *c1)
{
    CHECK(scene_pbf.key(x->st, 'w'));
    sc_rest(x, px, py, steps);
    scene_pbf.draw(x->st, &x->im);
    *c0 = x->im.w, *c1 = -1;
    for (int y = 0; y < x->im.h / 3; y++)
        for (int c = 0; c < x->im.w; c++)
            if (is_water_px(image_get(&x->im, c, y)))
                *c0 = c < *c0 ? c : *c0, *c1 = c > *c1 ? c : *c1;
}

TEST(pbf_scene_pour_before_any_pointer_falls_in_the_middle)
{
    /* The app's pointer sits at the corner until a terminal reports one (none
     * reports a move without a button): w then pours in the middle of the box,
     * not down the left wall. */
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false); /* the dam break's splashes down, the air above clear */
    int c0, c1;
    pour_columns(&x, 0.0f, 0.0f, 40, &c0, &c1);
    CHECK_MSG(c0 >= 44 && c1 <= 56, "the stream spans columns %d..%d", c0, c1);
    fx_pbf_close(&x);
    /* Once the pointer has been somewhere, over there. */
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    fx_pbf_frames(&x, 120, false);
    sc_rest(&x, 20.5f, 10.0f, 1);
    pour_columns(&x, 20.5f, 10.0f, 40, &c0, &c1);
    CHECK_MSG(c0 >= 16 && c1 <= 25, "the stream spans columns %d..%d", c0, c1);
    fx_pbf_close(&x);
}

TEST(pbf_scene_pour_stops_at_the_cap)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, false, NULL))
        return;
    const long start = sc_json(&x, "particles");
    for (int k = 0; k < 12; k++) /* more than the cap leaves */
        CHECK(scene_pbf.key(x.st, 'w'));
    long last = start;
    for (int k = 0; k < 240; k++) {
        sc_rest(&x, 20.0f + 0.25f * (float)k, 6.0f, 8); /* the nozzle moves along */
        const long n = sc_json(&x, "particles");
        CHECK(n >= last && n <= start + start / 2);
        last = n;
    }
    CHECK_MSG(last == start + start / 2, "%ld particles after the pours (start %ld)", last, start);
    CHECK(scene_pbf.key(x.st, 'w')); /* the key is the scene's, but there is no room */
    fx_pbf_frames(&x, 4, false);
    CHECK_INT(sc_json(&x, "particles"), start + start / 2);
    CHECK(!scene_pbf.key(x.st, 'x'));
    /* r: the start again, and nothing left to pour. */
    scene_pbf.restart(x.st);
    CHECK_INT(sc_json(&x, "particles"), start);
    fx_pbf_frames(&x, 4, false);
    CHECK_INT(sc_json(&x, "particles"), start);
    fx_pbf_close(&x);
}

TEST(pbf_scene_seed_preset_grabs_one_particle)
{
    struct fx_pbf x;
    if (!fx_pbf_open(&x, 100, 30, true, NULL))
        return;
    fx_pbf_frames(&x, 60, false);
    const int col = 30, row = inside_water(&x, col, 1);
    fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f, true, true, 0.0f, 0.0f);
    for (int k = 0; k < 20; k++)
        fx_pbf_step(&x, (float)col + 0.5f, (float)row + 0.5f - (float)k, true, false, 0.0f, 0.0f);
    scene_pbf.draw(x.st, &x.im);
    int red = 0;
    for (int y = 0; y < x.im.h; y++)
        for (int c = 0; c < x.im.w; c++) {
            const rgb_t p = image_get(&x.im, c, y);
            red += rgb_r(p) > 200 && rgb_g(p) < 80 && rgb_b(p) < 80;
        }
    CHECK(red >= 1 && red <= 12); /* one particle, drawn red and larger, as pbf.html does */
    fx_pbf_close(&x);
}

/* ---- In a terminal ------------------------------------------------------------- */

/* Water pixels (is_water_px) in cells [c0,c1) x [r0,r1) of a capture-pane -e
 * (e2e_cells, e2e_pixels). */
static int captured_water(const char *text, int c0, int c1, int r0, int r1)
{
    struct e2e_cell *cells = malloc((size_t)c1 * (size_t)r1 * sizeof *cells);
    int n = 0;
    if (!cells)
        return 0;
    e2e_cells(text, cells, c1, r1);
    for (int row = r0; row < r1; row++)
        for (int col = c0; col < c1; col++) {
            int px[2];
            e2e_pixels(&cells[row * c1 + col], &px[0], &px[1]);
            for (int k = 0; k < 2; k++)
                n += px[k] != E2E_DEFAULT && (px[k] & E2E_RGB) &&
                     is_water_px((rgb_t)(px[k] & 0xffffff));
        }
    free(cells);
    return n;
}

/* What e2e_wait looks for: at least want water pixels in a box of cells. */
struct water_query {
    int c0, c1, r0, r1, want, found;
};

static bool enough_water(const char *screen, void *arg)
{
    struct water_query *q = arg;
    q->found = captured_water(screen, q->c0, q->c1, q->r0, q->r1);
    return q->found >= q->want;
}

TEST_E2E(e2e_pbf_left_drag_lifts_a_handful_of_water)
{
    CHECK(e2e_start_swirl(100, 30, "COLORTERM=truecolor", "--scene pbf"));
    /* The block collapses into a pool along the floor; the top is dry. */
    struct water_query pool = {.c0 = 10, .c1 = 90, .r0 = 25, .r1 = 28, .want = 300};
    CHECK_MSG(e2e_wait(e2e_screen, enough_water, &pool, E2E_DEADLINE), "%d water pixels low",
              pool.found);
    struct water_query air = {.c0 = 40, .c1 = 61, .r0 = 2, .r1 = 9, .want = 30};
    CHECK_INT(captured_water(e2e_screen(), air.c0, air.c1, air.r0, air.r1), 0);
    /* Press in the water at column 51, row 26, drag up to row 5 and hold. */
    char rep[64];
    e2e_send_bytes("\x1b[<0;51;27M");
    for (int y = 26; y >= 6; y -= 2) {
        snprintf(rep, sizeof rep, "\x1b[<32;51;%dM", y);
        e2e_send_bytes(rep);
    }
    CHECK_MSG(e2e_wait(e2e_screen, enough_water, &air, E2E_DEADLINE),
              "%d water pixels at the pointer up in the air", air.found);
    e2e_send_bytes("\x1b[<0;51;6m");
    e2e_send_key("q");
    e2e_stop();
}

TEST_E2E(e2e_pbf_pour_key_adds_water)
{
    /* 160 columns: every tag of a loaded machine, the timings and the count
     * fit the status line. w pours in 6 % more, a few at a time. */
    CHECK(e2e_start_swirl(160, 30, "COLORTERM=truecolor", "--scene pbf"));
    double start = 0.0, last;
    CHECK(e2e_wait_figure("particles", &start) && start > 0.0);
    e2e_send_key("w");
    double want = start + (double)(long)(0.06f * (float)start);
    CHECK_MSG(e2e_wait_figure_is("particles", want, &last), "%.0f particles, not %.0f",
              last, want);
    e2e_send_key("?");
    CHECK_MSG(e2e_help_shows("pour in more water (up to 1.5 times"), "help:\n%s", e2e_plain());
    e2e_send_key("q");
    e2e_send_key("q");
    e2e_stop();
}
