/*
 * app.h — swirl's state machine: scenes, keys, pointer, pacing of steps, HUD and
 * overlays. No terminal here: the terminal loop (term.c), the headless runner and
 * the recorder drive the same app, so what a test sees is what a user sees.
 *
 * Per frame: app_input() for each event, app_advance() runs the scene's steps for
 * one frame (each step gets its share of the pointer's path), app_compose() draws
 * scene + HUD + overlays into cells, app_encode() turns them into bytes.
 * Pointer coordinates: events come in cells; the scene gets canvas pixels
 * (cell (c,r) is pixel x = c + 0.5, y = 2r + 1).
 */
#ifndef SWIRL_APP_H
#define SWIRL_APP_H

#include "cells.h"
#include "encode.h"
#include "input.h"
#include "scene.h"

#define APP_MIN_COLS 20
#define APP_MIN_ROWS 6
#define APP_REF_FPS 30
#define DEFAULT_TOLERANCE 6 /* --tolerance: invisible in motion, a third of the bytes */
#define APP_PATH_MAX 64 /* pointer reports kept between two steps */

struct app_opts {
    enum color_mode color;
    enum glyph_set glyphs;
    int fps;
    int tolerance;
    bool sync;
    bool autopilot;      /* --auto */
    bool demo;           /* --demo */
    uint64_t seed;
    bool preset_seed;
    int grid_w, grid_h;
    int scene;           /* index of the first scene */
};

enum app_action {
    APP_NONE = 0,
    APP_QUIT = 1,
};

struct app {
    struct app_opts o;
    struct scene_opts so;
    int cols, rows;
    int cur;
    void *st[SCENE_COUNT];
    long steps[SCENE_COUNT];
    struct image img;
    struct cells cells;
    struct encoder enc;
    bool quit, paused, step_once, help, panel, kbd;
    int sel;             /* selected parameter in the panel */
    /* Pointer: where events put it, and what the scene has been told. */
    struct {
        float x, y;
        float path[2 * APP_PATH_MAX]; /* where it went since the last step: */
        int npath;                    /* x,y pairs, the last one (x,y) */
        bool down, pressed, scene_down, has;
        int button;
        double last_real; /* app time of the last real pointer event */
    } ptr;
    bool auto_on;
    double owed;         /* steps owed to the scene (fractional) */
    double now;          /* app time in seconds (advanced by frames) */
    double shown_at;     /* when the current scene was shown (hint) */
    double step_ms;      /* mean ms per step (exponential average) */
    double fps;          /* frames drawn per second, measured */
    double fps_t0;
    int fps_frames;
    long frames, frames_skipped; /* frames drawn; skipped while the link was behind */
    size_t bytes;        /* bytes of all frames drawn */
    double demo_t0;
    bool demo;
    bool sim_clock;      /* timing is simulated (recordings): HUD shows no ms */
    bool dirty;          /* input since the last compose */
};

int app_init(struct app *a, const struct app_opts *o, int cols, int rows);
void app_free(struct app *a);
void app_resize(struct app *a, int cols, int rows);
int app_input(struct app *a, const struct input_event *ev);
/* Advances one frame of dt seconds; clock() reads a monotonic clock for timing. */
void app_advance(struct app *a, double dt, double (*clock)(void));
/* Runs exactly n steps of the current scene over dt seconds of app time, with
 * the pointer (and --auto) as app_advance does; returns their wall time (s). */
double app_run_steps(struct app *a, double dt, int n, double (*clock)(void));
void app_compose(struct app *a);
/* Encodes the composed cells; returns the bytes appended. */
size_t app_encode(struct app *a, struct buf *out);
/* Shows scene i (creating it on first use). */
void app_switch(struct app *a, int i);
/* Statistics of the current scene as one JSON object (no newline); ms is the
 * step time to report. */
void app_json(struct app *a, struct buf *out, double ms);
static inline const struct scene_ops *app_scene(const struct app *a) { return scenes[a->cur]; }
static inline bool app_too_small(const struct app *a)
{
    return a->cols < APP_MIN_COLS || a->rows < APP_MIN_ROWS;
}

#endif
