/*
 * fixtures.c — the shared test fixtures of fixtures.h.
 */
#include "fixtures.h"
#include "cli.h"
#include "compose.h"
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void fx_nap(double s)
{
    if (s <= 0.0)
        return;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int fx_argv(const char *line, char *copy, size_t cap, char **argv, int max)
{
    static char name[] = "swirl";
    int argc = 0;
    if (max > 0)
        argv[argc++] = name;
    snprintf(copy, cap, "%s", line);
    for (char *w = strtok(copy, " "); w && argc < max; w = strtok(NULL, " "))
        argv[argc++] = w;
    return argc;
}

void fx_screen_open(struct fx_screen *x, const struct app_opts *o, int cols, int rows)
{
    CHECK(app_init(&x->a, o, cols, rows) == 0);
    frame_init(&x->f, &x->a, true);
}

void fx_screen_close(struct fx_screen *x)
{
    frame_free(&x->f);
    app_free(&x->a);
}

void fx_screen_compose(struct fx_screen *x)
{
    compose_frame(&x->a, &x->f.st, &x->f.img, &x->f.cells);
}

const char *fx_row_text(const struct fx_screen *x, int row)
{
    static char line[1024];
    int n = 0;
    for (int c = 0; c < x->f.cells.cols && n < (int)sizeof line - 1; c++) {
        const uint32_t ch = x->f.cells.c[(size_t)row * (size_t)x->f.cells.cols + (size_t)c].ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return line;
}

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

bool fx_fluid_finite(const struct fluid *f)
{
    size_t nu = (size_t)(f->nx + 1) * (size_t)f->ny, nv = (size_t)f->nx * (size_t)(f->ny + 1);
    size_t nd = 3 * (size_t)f->dw * (size_t)f->dh;
    for (size_t i = 0; i < nu; i++)
        if (!isfinite(f->u[i]))
            return false;
    for (size_t i = 0; i < nv; i++)
        if (!isfinite(f->v[i]))
            return false;
    for (size_t i = 0; i < nd; i++)
        if (!isfinite(f->dye[i]))
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

void fx_pbf_init(struct pbf *s, const struct pbf_params *p, int bw, int bh, int box_w, int box_h)
{
    CHECK_INT(pbf_init(s, p, bw, bh, box_w, box_h), 0);
}

void fx_pbf_seed(struct pbf *s)
{
    struct pbf_params p;
    pbf_params_seed(&p);
    fx_pbf_init(s, &p, FX_SEED_BLOCK, FX_SEED_BLOCK, FX_SEED_BOX, FX_SEED_BOX);
}

int fx_pbf_nonfinite(const struct pbf *s)
{
    int bad = 0;
    for (int i = 0; i < s->nfluid; i++)
        if (!isfinite(s->x[i]) || !isfinite(s->y[i]) || !isfinite(s->vx[i]) ||
            !isfinite(s->vy[i]) || !isfinite(s->ax[i]) || !isfinite(s->ay[i]))
            bad++;
    return bad;
}

int fx_pbf_differences(const struct pbf *a, const struct pbf *b)
{
    if (a->nfluid != b->nfluid || a->iter != b->iter)
        return 1;
    int bad = 0;
    for (int i = 0; i < a->nfluid; i++)
        bad += a->x[i] != b->x[i] || a->y[i] != b->y[i] || a->vx[i] != b->vx[i] ||
               a->vy[i] != b->vy[i] || a->ax[i] != b->ax[i] || a->ay[i] != b->ay[i];
    return bad;
}

void *fx_scene_create(const struct scene_ops *ops, const struct scene_opts *o, int cols, int rows,
                      struct image *im)
{
    image_init(im, cols, 2 * (rows - 1));
    void *st = ops->create(o, im->w, im->h);
    CHECK_MSG(st != NULL, "no %s scene at %dx%d", ops->name, cols, rows);
    if (!st)
        image_free(im);
    return st;
}

bool fx_pbf_open(struct fx_pbf *x, int cols, int rows, bool preset_seed, struct pool *pool)
{
    const struct scene_opts o = {.seed = 1, .preset_seed = preset_seed, .pool = pool};
    x->st = fx_scene_create(&scene_pbf, &o, cols, rows, &x->im);
    return x->st != NULL;
}

void fx_pbf_close(struct fx_pbf *x)
{
    scene_pbf.destroy(x->st);
    image_free(&x->im);
}

void fx_pbf_step(struct fx_pbf *x, float px, float py, bool down, bool edge, float vx, float vy)
{
    float path[4] = {px, py, px, py};
    struct pointer p = {.down = down, .button = 0, .pressed = down && edge,
                        .released = !down && edge, .x0 = px, .y0 = py, .x1 = px, .y1 = py,
                        .path = path, .npath = 2, .vx = vx, .vy = vy, .dt = 1.0f / 240.0f};
    scene_pbf.step(x->st, &p);
}

void fx_pbf_frames(struct fx_pbf *x, int n, bool draw)
{
    for (int f = 0; f < n; f++) {
        for (int k = 0; k < scene_pbf.steps_per_frame(x->st); k++)
            fx_pbf_step(x, 0.0f, 0.0f, false, false, 0.0f, 0.0f);
        if (draw)
            scene_pbf.draw(x->st, &x->im);
    }
}

#define GUARD_PX 4096
#define GUARD_VALUE 0xA5A5A5A5u /* no rgb_t: a drawing never writes it */

void fx_image_guarded(struct image *im, int w, int h)
{
    rgb_t *all = malloc(((size_t)w * (size_t)h + 2 * GUARD_PX) * sizeof *all);
    CHECK(all != NULL);
    for (size_t i = 0; all && i < (size_t)w * (size_t)h + 2 * GUARD_PX; i++)
        all[i] = GUARD_VALUE;
    im->w = w, im->h = h, im->banded = false;
    im->px = all ? all + GUARD_PX : NULL;
    if (all)
        image_fill(im, 0);
}

bool fx_image_guards_intact(const struct image *im)
{
    const rgb_t *all = im->px - GUARD_PX, *after = im->px + (size_t)im->w * (size_t)im->h;
    for (size_t i = 0; i < GUARD_PX; i++)
        if (all[i] != GUARD_VALUE || after[i] != GUARD_VALUE)
            return false;
    return true;
}

void fx_image_guarded_free(struct image *im)
{
    free(im->px - GUARD_PX);
    im->px = NULL;
}

char *fx_help_text(void)
{
    struct buf b;
    buf_init(&b);
    cli_usage(&b);
    buf_putc(&b, 0);
    return b.p;
}

void fx_scenes_joined(char *out, size_t n, const char *sep, const char *last)
{
    size_t at = 0;
    if (n == 0)
        return;
    out[0] = 0;
    for (int i = 0; i < SCENE_COUNT && at < n; i++) {
        int w = snprintf(out + at, n - at, "%s%s",
                         i == 0 ? "" : i + 1 == SCENE_COUNT ? last : sep, scenes[i]->name);
        at += w > 0 ? (size_t)w : 0;
    }
}

bool fx_lists_the_scenes(const char *list)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list);
    int k = 0;
    for (char *w = strtok(copy, ", "); w; w = strtok(NULL, ", ")) {
        if (strcmp(w, "or") == 0 || strcmp(w, "and") == 0)
            continue;
        if (k >= SCENE_COUNT || strcmp(w, scenes[k]->name) != 0)
            return false;
        k++;
    }
    return k == SCENE_COUNT;
}

void fx_scene_digits(char *out, size_t n)
{
    snprintf(out, n, SCENE_COUNT > 1 ? "1-%d" : "%d", SCENE_COUNT);
}
