/*
 * scene.c — the scene registry (scenes[], written from scene.h's SCENE_TABLE),
 * the scenes' names joined for messages and help, and the one path to a
 * scene's parameters (see scene.h).
 *
 * Every parameter change goes through scene_param_set: the panel's steps, --set
 * on the command line and the tests. The value is checked against the
 * definition, written into the scene's own field, and the scene is told.
 */
#include "scene.h"
#include "buf.h"
#include "pool.h"

#include <stdio.h>
#include <string.h>

#define SCENE_ADDRESS_(NAME) &scene_##NAME,
const struct scene_ops *const scenes[SCENE_COUNT] = {SCENE_TABLE(SCENE_ADDRESS_)};
#undef SCENE_ADDRESS_

int scene_find(const char *name)
{
    for (int i = 0; i < SCENE_COUNT; i++)
        if (strcmp(scenes[i]->name, name) == 0)
            return i;
    return -1;
}

int scene_names(char *out, size_t n, unsigned mask, unsigned want, const char *sep,
                const char *last)
{
    int count = 0, k = 0;
    for (int i = 0; i < SCENE_COUNT; i++)
        count += (scenes[i]->flags & mask) == want;
    size_t at = 0;
    if (n > 0)
        out[0] = 0;
    for (int i = 0; i < SCENE_COUNT; i++) {
        if ((scenes[i]->flags & mask) != want)
            continue;
        const char *before = k == 0 ? "" : k + 1 == count ? last : sep;
        k++;
        if (at < n) {
            int w = snprintf(out + at, n - at, "%s%s", before, scenes[i]->name);
            at += w > 0 ? (size_t)w : 0;
        }
    }
    return count;
}

double scene_param_get(const struct scene_ops *ops, const void *st, int i)
{
    return param_read(&ops->params[i], st);
}

int scene_param_set(const struct scene_ops *ops, void *st, int i, double v)
{
    const struct param_def *d = &ops->params[i];
    if (!param_valid(d, v))
        return -1;
    double old = param_read(d, st);
    param_write(d, st, v);
    if (ops->param_changed(st, i) != 0) {
        param_write(d, st, old);
        return -1;
    }
    return 0;
}

bool scene_param_step(const struct scene_ops *ops, void *st, int i, int dir)
{
    double v = scene_param_get(ops, st, i);
    double nv = param_next(&ops->params[i], v, dir);
    if (nv == v || scene_param_set(ops, st, i, nv) != 0)
        return false;
    return scene_param_get(ops, st, i) != v;
}

void *scene_member_pick(const struct scene_member *m, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0)
            return m[i].at;
    return NULL;
}

int scene_param_find(const struct scene_ops *ops, const char *name)
{
    char buf[64];
    for (int i = 0; i < ops->nparams; i++) {
        param_name(&ops->params[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return i;
    }
    return -1;
}

/* Bands a thread: a few, so that a thread done early takes over another's. */
#define BANDS_A_THREAD 3

struct bands {
    int n, nbands;
    void (*fn)(void *arg, int y0, int y1);
    void *arg;
};

static void run_band(void *arg, int part, int nparts)
{
    const struct bands *b = arg;
    int y0, y1;
    pool_span(b->n, part, nparts, &y0, &y1);
    if (y0 < y1)
        b->fn(b->arg, y0, y1);
}

void scene_bands(struct pool *p, int n, void (*fn)(void *arg, int y0, int y1), void *arg)
{
    const int threads = pool_threads(p);
    struct bands b = {n, threads > 1 ? BANDS_A_THREAD * threads : 1, fn, arg};
    pool_run(p, run_band, &b, b.nbands);
}

void scene_words(struct buf *out, enum scene_words format)
{
    if (format == SCENE_WORDS_MD)
        buf_printf(out, "## Keys and mouse\n\nEach scene's own, as its help shows them (from "
                        "the scene's file; `make docs` writes this section):\n\n");
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        const char *wheel = s->zoom ? "zooms" : "does nothing here";
        if (format == SCENE_WORDS_MAN_KEYS && s->keys)
            buf_printf(out, ".TP\n.B %s\n\\&%s.\n", s->name, s->keys);
        else if (format == SCENE_WORDS_MAN_MOUSE)
            buf_printf(out, ".TP\n.B %s\n\\&%s; the wheel %s.\n", s->name, s->mouse, wheel);
        else if (format == SCENE_WORDS_MD)
            buf_printf(out, "- **%s**: keys: %s. Mouse: %s; the wheel %s.\n", s->name,
                       s->keys ? s->keys : "none", s->mouse, wheel);
    }
}
