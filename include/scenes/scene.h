/*
 * scene.h — what a scene is: a const table of operations over its own state.
 *
 * A scene owns a solver and knows how to draw it into the canvas image (w x h
 * pixels, see swirl.h), which parameters it exposes, what statistics it reports
 * and how it answers the pointer. The app calls step() a fixed number of times a
 * frame (steps_per_frame at the reference 30 fps), each time with the part of the
 * pointer's path that falls in that step. Scenes never see the terminal.
 */
#ifndef SWIRL_SCENE_H
#define SWIRL_SCENE_H

#include "buf.h"
#include "image.h"
#include "param.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The pointer as a scene sees it during one step, in canvas pixels. */
struct pointer {
    bool down;           /* a button is held */
    int button;          /* 0 left, 2 right */
    bool pressed;        /* went down at the start of this step */
    bool released;       /* went up at the start of this step */
    float x0, y0;        /* where it was at the start of the step */
    float x1, y1;        /* where it is at the end of the step */
    const float *path;   /* the way between: npath points (x,y pairs), the first */
    int npath;           /* (x0,y0) and the last (x1,y1), at least 2 */
    float vx, vy;        /* its velocity, pixels per second */
    float dt;            /* wall-clock seconds this step stands for */
};

struct pool;

/* Options from the command line that a scene may use. */
struct scene_opts {
    uint64_t seed;
    bool preset_seed;    /* --preset seed: the seed page's setup and units */
    int grid_w, grid_h;  /* dye: --grid WxH (0: from the canvas) */
    struct pool *pool;   /* worker threads for the solver (NULL: this thread) */
    const atomic_int *stop; /* raised: the step under way ends early, in a
                          * consistent state (the solvers' params' stop); NULL:
                          * never */
    int px_scale;        /* image pixels a canvas pixel the scene is drawn at
                          * (cells_scale: 2 for quadrants and sextants); the
                          * dye's grid is that fine. 0 counts as 1. */
    bool smaller;        /* simulated smaller (about half the work): frames
                          * could not be made in time (the frame loop's detail) */
};

/* What a scene is for on the command line (scene_ops' flags). */
enum {
    SCENE_GRID = 1,      /* --grid WxH sizes its simulation grid */
    SCENE_SEED_PAGE = 2, /* it has a seed page: --preset seed takes its setup */
};

struct scene_ops {
    const char *name;    /* --scene's word, one word ("dye") */
    const char *title;   /* one line: what it is */
    const char *hint;    /* shown at start, then fades: "drag to stir" */
    const char *mouse;   /* what the pointer does, for help */
    const char *keys;    /* scene keys for help, or NULL */
    void *(*create)(const struct scene_opts *o, int w, int h);
    void (*destroy)(void *s);
    void (*resize)(void *s, int w, int h);
    void (*restart)(void *s);
    int (*steps_per_frame)(void *s);
    void (*step)(void *s, const struct pointer *p);
    /* Draws into im: the canvas, or a whole number of times as fine each way
     * (scene_image_scale; quadrants and sextants draw at twice the canvas). */
    void (*draw)(void *s, struct image *im);
    /* The frame loop's detail: the scale the scene is now drawn at (as
     * scene_opts' px_scale) and whether it is to be simulated smaller. The
     * dye regrids at once; the water and the cloth, which cannot change
     * their particles without a jump, take it at their next start (r).
     * Returns whether the simulation is now at the size asked. */
    bool (*detail)(void *s, int px_scale, bool smaller);
    /* Wheel clicks (+ up) at canvas pixel (x,y). May be NULL. */
    void (*zoom)(void *s, float x, float y, int clicks);
    /* Scene keys; returns true when the key was the scene's. */
    bool (*key)(void *s, int key);
    /* Statistics: a short line for the status line (what the seed pages
     * show), a line of the rest for the help (the solver's diagnostics, in
     * words a user reads), and JSON fields for --headless. */
    void (*hud)(void *s, char *out, size_t n);
    void (*stats)(void *s, char *out, size_t n);
    void (*json)(void *s, struct buf *out);
    /* The scripted pointer of --auto at time t (seconds since the scene was
     * shown) on a w x h canvas; deterministic, as the scene's state is. */
    void (*autopilot)(void *s, double t, int w, int h, float *x, float *y, bool *down,
                      int *button);
    /* Left alone this many seconds (no key, no pointer), the scene is handed
     * to its autopilot until the next real input; 0: never (it rests). */
    double idle_auto;
    /* Parameters: each definition's offset is into the scene's state (the
     * void * the other operations get), and param_changed() is called after
     * one was written there, to restart or re-derive what depends on it; it
     * returns 0, or -1 when the scene cannot take the value (out of memory,
     * say), and then the old value is put back. */
    const struct param_def *params;
    int nparams;
    int (*param_changed)(void *s, int i);
    /* The scene's state by name, written apart from the parameter table, so
     * that the tests can check each definition against the field it must
     * write (tests/test_plumbing.c): the solver ("fluid", "pbf" or "cloth":
     * its struct, whose prm the solver reads) and the scene's own fields by
     * their names in its struct; NULL for a name it does not know. */
    void *(*member)(void *s, const char *name);
    unsigned flags;      /* SCENE_GRID, SCENE_SEED_PAGE */
};

/* One name of a scene's member() and where it is. */
struct scene_member {
    const char *name;
    void *at;
};
/* The `at` of the member called name among m[0..n), or NULL. */
void *scene_member_pick(const struct scene_member *m, int n, const char *name);

/* The scene table: every scene, in key order (the first line's scene is key 1,
 * the next 2, and so on, at most 9), one X(NAME) each for the `const struct
 * scene_ops scene_NAME` in its own files. Everything that names the scenes,
 * counts them or gives them keys (the registry scenes[], SCENE_COUNT, the
 * digit keys, the tour, --help, --scene's words and messages, the completions,
 * --list-scenes and, through it, the man page and the build's loops over the
 * scenes) is written from it: a new scene is one line here, at the end. */
#define SCENE_TABLE(X) X(dye) X(pbf) X(cloth)

#define SCENE_EXTERN_(NAME) extern const struct scene_ops scene_##NAME;
SCENE_TABLE(SCENE_EXTERN_)
#undef SCENE_EXTERN_
#define SCENE_ONE_(NAME) +1
enum { SCENE_COUNT = 0 SCENE_TABLE(SCENE_ONE_) };
#undef SCENE_ONE_
/* All scenes in the table's order. */
extern const struct scene_ops *const scenes[SCENE_COUNT];
/* The index of the scene called name, or -1. */
int scene_find(const char *name);
/* Each scene's keys and mouse, the words its help shows (.keys, .mouse), for
 * the man page's KEYS and MOUSE (roff) and docs/scenes.md's "Keys and mouse"
 * (markdown): one source for them (build/swirl-scenewords writes them). */
enum scene_words { SCENE_WORDS_MAN_KEYS, SCENE_WORDS_MAN_MOUSE, SCENE_WORDS_MD };
struct buf;
void scene_words(struct buf *out, enum scene_words format);

/* The names of the scenes whose flags, masked by mask, are want (mask 0:
 * every scene), in the table's order, into out (n bytes, always ended, cut
 * when it is too short): sep between two, last before the last of more than
 * one ("dye, pbf or cloth" with ", " and " or "). Returns how many there are. */
int scene_names(char *out, size_t n, unsigned mask, unsigned want, const char *sep,
                const char *last);

/* The one way to a scene's parameters, for the panel and for --set alike. */
double scene_param_get(const struct scene_ops *ops, const void *st, int i);
/* Writes v when param_valid and lets the scene apply it; returns 0, or -1
 * (not allowed, or the scene could not take it: nothing changes). */
int scene_param_set(const struct scene_ops *ops, void *st, int i, double v);
/* One step up (dir > 0) or down; returns whether the value changed. */
bool scene_param_step(const struct scene_ops *ops, void *st, int i, int dir);
/* The parameter with the command line's name (see param_name), or -1. */
int scene_param_find(const struct scene_ops *ops, const char *name);

/* Drawing over rows [0, n) that comes out the same however the rows are cut
 * (each pixel a function of what the drawing reads, written by one band
 * alone): fn(arg, y0, y1) for bands that cover the rows, on the pool's threads
 * (a few bands a thread, so that one done early takes over another's), or
 * all at once on this thread without a pool. */
void scene_bands(struct pool *p, int n, void (*fn)(void *arg, int y0, int y1), void *arg);

/* Image pixels a canvas pixel, for a scene whose canvas is canvas_w wide
 * drawing into im: 1, or the whole number of times im is finer. */
static inline int scene_image_scale(int canvas_w, const struct image *im)
{
    return canvas_w > 0 && im->w >= 2 * canvas_w ? im->w / canvas_w : 1;
}

#endif
