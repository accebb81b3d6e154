/*
 * fixtures.h — what several test files set up and compare the same way, in one
 * place (tests/fixtures.c): a nap, a command line, solver states built from the
 * seed presets with a few fields changed, runs of steps, and bit-for-bit
 * comparisons of two runs (cloth), the dye solver's fields finite, the seed's
 * water and its sanity (pbf), a scene on a terminal's canvas (the pbf scene:
 * open, close, a step, idle frames), images with guard bands, and the scene
 * table's names as the texts that list them (joined, or checked word by word).
 */
#ifndef SWIRL_FIXTURES_H
#define SWIRL_FIXTURES_H

#include "app.h"
#include "cloth.h"
#include "fluid.h"
#include "frame.h"
#include "image.h"
#include "pbf.h"
#include "scene.h"

#include <stdbool.h>
#include <stddef.h>

/* Sleeps s seconds (nothing when s <= 0). */
void fx_nap(double s);
/* A command line: "swirl" and the words of line (split at spaces) in argv
 * (max entries), pointing into copy (cap bytes, overwritten); its argc. */
int fx_argv(const char *line, char *copy, size_t cap, char **argv, int max);

/* The seed preset's cloth at w x h with `fixed` pins. */
struct cloth_params fx_cloth_params(int w, int h, int fixed);
void fx_cloth_steps(struct cloth *c, int n);
/* Every position and velocity finite. */
bool fx_cloth_finite(const struct cloth *c);
/* How many particles differ between a and b in position or velocity (by
 * value: +0 == -0). */
int fx_cloth_differences(const struct cloth *a, const struct cloth *b);

/* Every velocity and dye value of the dye solver finite. */
bool fx_fluid_finite(const struct fluid *f);

/* One cut along the segment (x0,y0)-(x1,y1): what cloth_cut_path cuts. */
static inline int fx_cloth_cut(struct cloth *c, float x0, float y0, float x1, float y1)
{
    return cloth_cut_path(c, (const float[4]){x0, y0, x1, y1}, 2);
}

/* A key, and a mouse report at cell (x, y), as the input parser gives them. */
static inline struct input_event fx_key(int k)
{
    return (struct input_event){.type = INPUT_KEY, .key = k};
}

static inline struct input_event fx_mouse(enum mouse_action act, int x, int y, int button)
{
    return (struct input_event){.type = INPUT_MOUSE, .action = act, .button = button, .x = x, .y = y};
}

/* An app and the frame it is drawn into, as the terminal loop holds them. */
struct fx_screen {
    struct app a;
    struct frame f;
};
/* app_init (a failed check when it fails) with o, and the frame for it. */
void fx_screen_open(struct fx_screen *x, const struct app_opts *o, int cols, int rows);
void fx_screen_close(struct fx_screen *x);
/* The app's picture composed into the frame's cells. */
void fx_screen_compose(struct fx_screen *x);
/* A row of the composed cells as text (non-ASCII glyphs as '#'), in a
 * buffer of its own that the next call overwrites. */
const char *fx_row_text(const struct fx_screen *x, int row);

/* The app advanced by dt with no budget for its steps (all of them run). */
static inline void fx_app_advance(struct app *a, double dt, double (*clock)(void))
{
    app_advance_within(a, dt, clock, 0.0);
}

/* The seed page's pbf block and box (particles, diameters). */
#define FX_SEED_BLOCK 30
#define FX_SEED_BOX 90
/* pbf_init, with a failed check when it fails. */
void fx_pbf_init(struct pbf *s, const struct pbf_params *p, int bw, int bh, int box_w, int box_h);
/* The seed preset's water. */
void fx_pbf_seed(struct pbf *s);
/* Water particles with a non-finite position, velocity or acceleration. */
int fx_pbf_nonfinite(const struct pbf *s);
/* How many water particles differ between a and b in position, velocity or
 * acceleration (by value); 1 when their counts or their last step's
 * corrections differ. */
int fx_pbf_differences(const struct pbf *a, const struct pbf *b);

/* A scene made with o on the canvas of a cols x rows terminal (cols x
 * 2(rows-1) pixels: the last row is the HUD's), and *im an image of that size;
 * NULL, with a failed check and no image, when the scene could not be made. */
void *fx_scene_create(const struct scene_ops *ops, const struct scene_opts *o, int cols, int rows,
                      struct image *im);

/* The pbf scene (seed 1; the seed preset or not, on a pool or none) on the
 * canvas of a cols x rows terminal, and its image; false (a failed check)
 * when it could not be made. */
struct fx_pbf {
    void *st;
    struct image im;
};
bool fx_pbf_open(struct fx_pbf *x, int cols, int rows, bool preset_seed, struct pool *pool);
void fx_pbf_close(struct fx_pbf *x);
/* A step with the left button down or not at canvas (px, py), pressed or
 * released now (edge), the pointer moving at (vx, vy) pixels a second. */
void fx_pbf_step(struct fx_pbf *x, float px, float py, bool down, bool edge, float vx, float vy);
/* n frames (the scene's steps a frame each) with nothing touching the water,
 * each drawn into x->im or not. */
void fx_pbf_frames(struct fx_pbf *x, int n, bool draw);

/* A w x h image whose pixels lie between two guard bands no drawing may touch
 * (free with fx_image_guarded_free, not image_free). */
void fx_image_guarded(struct image *im, int w, int h);
/* The guard bands as they were set: nothing was drawn outside the image. */
bool fx_image_guards_intact(const struct image *im);
void fx_image_guarded_free(struct image *im);

/* What --help prints, as one string (free it). */
char *fx_help_text(void);

/* Every scene's name from scenes[], in the table's order, joined into out (n
 * bytes, always ended): sep between two, last before the last ("dye, pbf or
 * cloth" with ", " and " or "). Written here, not with scene_names(), so that
 * a test of the product's lists does not take its expected text from them. */
void fx_scenes_joined(char *out, size_t n, const char *sep, const char *last);
/* The words of list (parted by ", ", " or ", " and " or spaces) are exactly
 * the scenes' names in the table's order. */
bool fx_lists_the_scenes(const char *list);
/* The digit keys of the scenes as the status line and the help's short form
 * write them: "1-N" for N scenes ("1" for one). */
void fx_scene_digits(char *out, size_t n);
/* The last scene of the table (the one Tab wraps from, Shift-Tab to). */
#define FX_LAST_SCENE (SCENE_COUNT - 1)

#endif
