/*
 * test_scenes.c — the scene wrappers (src/scenes/) on their own, through their
 * operation tables: created at a size, stepped with a pointer, drawn, resized,
 * restarted, zoomed; their parameters' one path; and the view's fit and zoom.
 */
#include "scene.h"
#include "test.h"
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct scene_opts opts = {1, false, 0, 0, NULL, NULL, 1, false};

/* A pointer held at (x,y) for one step (pressed on the first). */
static struct pointer held(float x, float y, bool first, int button, float *path)
{
    path[0] = path[2] = x, path[1] = path[3] = y;
    return (struct pointer){.down = true, .button = button, .pressed = first, .x0 = x, .y0 = y,
                            .x1 = x, .y1 = y, .path = path, .npath = 2, .dt = 1.0f / 240};
}

static uint64_t hash_image(const struct image *im)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < im->w * im->h; i++)
        h = (h ^ im->px[i]) * 1099511628211ull;
    return h;
}

static void step_n(const struct scene_ops *s, void *st, int n)
{
    float path[4];
    struct pointer idle = held(0, 0, false, 0, path);
    idle.down = false;
    for (int i = 0; i < n; i++)
        s->step(st, &idle);
}

TEST(scenes_draw_fill_the_canvas_and_are_deterministic)
{
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        uint64_t h[2];
        for (int run = 0; run < 2; run++) {
            void *st = s->create(&opts, 80, 46);
            CHECK(st != NULL);
            struct image im;
            image_init(&im, 80, 46);
            memset(im.px, 0xAB, sizeof *im.px * 80 * 46);
            step_n(s, st, 3 * s->steps_per_frame(st));
            s->draw(st, &im);
            int untouched = 0;
            for (int k = 0; k < 80 * 46; k++)
                untouched += im.px[k] == 0xABABABABu;
            CHECK_MSG(untouched == 0, "%s left %d pixels undrawn", s->name, untouched);
            h[run] = hash_image(&im);
            image_free(&im);
            s->destroy(st);
        }
        CHECK_MSG(h[0] == h[1], "%s draws differently from the same start", s->name);
    }
}

TEST(scenes_left_drag_moves_what_is_under_it)
{
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        void *a = s->create(&opts, 80, 46), *b = s->create(&opts, 80, 46);
        /* Press where the autopilot would start (on the scene's matter), drag
         * 20 px right over 40 steps in one; the other stays alone. */
        float x, y;
        bool down;
        int button;
        s->autopilot(a, 0.03, 80, 46, &x, &y, &down, &button);
        float path[4];
        for (int k = 0; k < 40; k++) {
            struct pointer p = held(x + 0.5f * (float)k, y, k == 0, 0, path);
            p.x0 = x + 0.5f * (float)(k > 0 ? k - 1 : 0), path[0] = p.x0;
            s->step(a, &p);
        }
        step_n(s, b, 40);
        struct buf ja, jb;
        buf_init(&ja), buf_init(&jb);
        s->json(a, &ja);
        s->json(b, &jb);
        CHECK_MSG(strcmp(ja.p, jb.p) != 0, "%s: a drag changed nothing", s->name);
        buf_free(&ja), buf_free(&jb);
        s->destroy(a);
        s->destroy(b);
    }
}

TEST(scenes_resize_restart_and_zoom)
{
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        void *st = s->create(&opts, 60, 30);
        step_n(s, st, 20);
        s->resize(st, 120, 70);
        struct image im;
        image_init(&im, 120, 70);
        s->draw(st, &im);
        if (s->zoom) {
            uint64_t before = hash_image(&im);
            s->zoom(st, 60, 35, 3);
            s->draw(st, &im);
            CHECK_MSG(hash_image(&im) != before, "%s: the wheel did not zoom", s->name);
            s->zoom(st, 1e9f, -1e9f, 1000); /* far outside, far too much: still drawable */
            s->draw(st, &im);
        }
        struct buf j;
        buf_init(&j);
        s->restart(st);
        step_n(s, st, 5);
        s->json(st, &j);
        CHECK_MSG(!strstr(j.p, "nan"), "%s: %s", s->name, j.p);
        char hud[256];
        s->hud(st, hud, sizeof hud);
        CHECK(strlen(hud) > 0);
        buf_free(&j);
        image_free(&im);
        s->destroy(st);
    }
}

TEST(scenes_parameters_validate_and_step_through_one_path)
{
    for (int i = 0; i < SCENE_COUNT; i++) {
        const struct scene_ops *s = scenes[i];
        void *st = s->create(&opts, 60, 30);
        for (int k = 0; k < s->nparams; k++) {
            const struct param_def *d = &s->params[k];
            double v = scene_param_get(s, st, k);
            CHECK_MSG(param_valid(d, v), "%s %s: default %g not allowed", s->name, d->label, v);
            CHECK(scene_param_set(s, st, k, d->max + 1000.0) == -1);
            CHECK(scene_param_set(s, st, k, NAN) == -1);
            CHECK(scene_param_get(s, st, k) == v); /* refused: nothing changed */
            char name[64];
            param_name(d, name, sizeof name);
            CHECK_INT(scene_param_find(s, name), k);
            if (d->type == PARAM_INT) /* whole numbers only */
                CHECK(scene_param_set(s, st, k, d->min + 0.5) == -1);
        }
        s->destroy(st);
    }
    /* 1/2/4 pinned corners step 1 -> 2 -> 4 and back. */
    const struct scene_ops *c = scenes[scene_find("cloth")];
    void *st = c->create(&opts, 60, 30);
    int f = scene_param_find(c, "fixed-particles");
    CHECK(scene_param_set(c, st, f, 1) == 0);
    CHECK(scene_param_step(c, st, f, +1) && scene_param_get(c, st, f) == 2);
    CHECK(scene_param_step(c, st, f, +1) && scene_param_get(c, st, f) == 4);
    CHECK(!scene_param_step(c, st, f, +1) && scene_param_get(c, st, f) == 4);
    CHECK(scene_param_step(c, st, f, -1) && scene_param_get(c, st, f) == 2);
    CHECK(scene_param_set(c, st, f, 3) == -1);
    c->destroy(st);
}

TEST(view_fit_centres_and_zoom_keeps_the_point_under_the_pointer)
{
    struct view v;
    view_fit(&v, -1.0f, 0.0f, 1.0f, 1.0f, 100, 60, 2.0f);
    /* The 2 x 1 world fits 96 x 56 pixels: 48 px a metre, centred. */
    CHECK_NEAR(v.zoom, 48.0, 1e-4);
    CHECK_NEAR(view_px(&v, -1.0f), 2.0, 1e-4);
    CHECK_NEAR(view_px(&v, 1.0f), 98.0, 1e-4);
    CHECK_NEAR(view_py(&v, 0.5f), 30.0, 1e-4);
    CHECK_NEAR(view_wx(&v, view_px(&v, 0.3f)), 0.3, 1e-5);
    CHECK_NEAR(view_wy(&v, view_py(&v, 0.7f)), 0.7, 1e-5);
    float wx = view_wx(&v, 70.0f), wy = view_wy(&v, 20.0f);
    view_zoom(&v, 70.0f, 20.0f, 2);
    CHECK_NEAR(v.zoom, 48.0 * 1.15 * 1.15, 1e-3);
    CHECK_NEAR(view_px(&v, wx), 70.0, 1e-3);
    CHECK_NEAR(view_py(&v, wy), 20.0, 1e-3);
    for (int k = 0; k < 100; k++)
        view_zoom(&v, 10.0f, 10.0f, 20);
    CHECK_NEAR(v.zoom, v.fit * VIEW_ZOOM_RANGE, 1e-2); /* bounded */
    for (int k = 0; k < 100; k++)
        view_zoom(&v, 10.0f, 10.0f, -20);
    CHECK_NEAR(v.zoom, v.fit / VIEW_ZOOM_RANGE, 1e-4);
}
