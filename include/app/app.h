/*
 * app.h — swirl's state machine: scenes, keys, the pointer and the pacing of
 * steps. No terminal and no pixels here: the terminal loop (term.c), the headless
 * runners and the bench drive the same app through frame.c, so what a test sees
 * is what a user sees.
 *
 * Per frame: app_input() for each event, then frame_next() (frame.h) advances
 * the app one frame (app_advance: the scene's steps, each with its share of the
 * pointer's path), composes the picture from the app's state (compose.h) and
 * encodes it. Pointer coordinates: events come in cells; the scene gets canvas
 * pixels (cell (c,r) is pixel x = c + 0.5, y = 2r + 1).
 */
#ifndef SWIRL_APP_H
#define SWIRL_APP_H

#include "cast.h"
#include "cells.h"
#include "event.h"
#include "path.h"
#include "scene.h"
#include "tune.h"

#define APP_MIN_COLS 20
#define APP_MIN_ROWS 6
#define APP_REF_FPS 30
#define APP_DEMO_SCENE_SECONDS 9.0 /* --demo: each scene's time in the tour */
#define APP_DEFAULT_TOLERANCE 6 /* --tolerance: invisible in motion, a third of the bytes */
#define APP_SETS_MAX 32  /* --set options */
#define APP_HELP_LINES 96 /* the help overlay's lines, at most (wrapped to a narrow window) */
#define APP_HELP_COLS 160 /* a help line before it is wrapped to the window */
/* s: the same key again this soon after its last press or repeat is the
 * terminal's autorepeat (X: the first repeat 660 ms after the press, then one
 * every 40 ms; other terminals repeat sooner) */
#define APP_KEY_REPEAT 0.75
#define APP_RECORD_LIMIT (256LL << 20) /* --record-limit: bytes a recording may take */
#define APP_SLOW_SHOWN 1.0 /* s: the HUD's [slow: ...] tag stays this long after a slow frame */
#define APP_NOTE_SHOWN 4.0 /* s: a note (app_note) stays on the status line this long */
#define APP_NOTE_COLS 64   /* a note's bytes, its end included */

/* A --set [SCENE:]NAME=VALUE, resolved against its scene's parameters (the
 * first scene's when it names none). */
struct app_set {
    int scene;
    int param;
    double value;
};

/* The terminal's own pixels (docs/pixels.md): none (glyphs), chosen by the
 * terminal's answers (--glyphs auto or pixels: kitty's protocol first, sixel
 * next), or a protocol asked for by name. */
enum app_pixels { APP_PIXELS_OFF, APP_PIXELS_AUTO, APP_PIXELS_KITTY, APP_PIXELS_SIXEL };

struct app_opts {
    enum color_mode color;
    const char *color_why; /* what chose it: "config file", "command line" or what
                            * was detected ("asked the terminal"); or NULL */
    enum glyph_set glyphs;
    const char *glyphs_why; /* the same for the glyphs ("VTE draws sextants"), or NULL */
    enum app_pixels pixels; /* asked for; after the terminal was asked, what it shows */
    const char *pixels_why; /* what chose that ("kitty answered"), or NULL */
    int fps;
    int tolerance;
    bool tolerance_set;  /* the user chose it: a slow link never raises it */
    bool sync;
    bool autopilot;      /* --auto */
    bool demo;           /* --demo */
    bool screensaver;    /* --screensaver: no status line or captions; any key or
                          * mouse button quits */
    bool no_status;      /* --no-status: start with the status line hidden */
    bool recording;      /* the frames go to a recording (--record): the captions
                          * promise nothing a replay cannot do */
    uint64_t seed;
    bool preset_seed;
    int grid_w, grid_h;
    int scene;           /* index of the first scene */
    int threads;         /* solver threads, the caller's included (--threads) */
    bool threads_auto;   /* in a terminal, use as many of them as make frames
                          * cheapest (no --threads: tune.h) */
    struct app_set sets[APP_SETS_MAX]; /* each applied to its scene when that is first
                                        * built: the first scene before its first step,
                                        * another when it is first switched to */
    int nsets;
    bool overwrite;      /* --overwrite: a recording may replace what is at its path */
    long long record_limit; /* --record-limit: recording stops at this size (0: never) */
    const atomic_int *stop; /* the terminal loop's "input waits": once raised, the
                             * step under way ends early and the frame's other
                             * steps are dropped (NULL: never) */
};

/* swirl's defaults: truecolor half-blocks at 30 fps, the dye scene, seed 1,
 * one solver thread, recordings of up to APP_RECORD_LIMIT. */
void app_opts_default(struct app_opts *o);

enum app_action {
    APP_NONE = 0,
    APP_QUIT = 1,
};

struct app {
    struct app_opts o;
    struct scene_opts so; /* so.pool: the solver threads, the app's own */
    int cols, rows;
    int cur;             /* the scene shown */
    void *st[SCENE_COUNT];
    long steps[SCENE_COUNT];
    unsigned picture;    /* counts requests to send the whole picture: a scene
                          * switch, Ctrl-L, a resume, the slow tag gone stale
                          * while paused */
    bool quit, paused, step_once, help, panel, kbd;
    bool status_off;     /* the status line is hidden (s, --no-status): the
                          * canvas takes its row too */
    int sel;             /* selected parameter in the panel */
    int help_top;        /* first line of the help shown (it scrolls when tall) */
    int help_over;       /* how far it scrolls (app_help_shown; APP_HELP_LINES until told) */
    double kbd_button_at; /* app time of the last Space/Enter of the keyboard pointer */
    int kbd_button_key;  /* ... and which of the two it was */
    /* Pointer: where events put it, and what the scene has been told. */
    struct {
        float x, y;
        struct path path; /* where it went since the last step, ending at (x,y) */
        bool down, pressed, scene_down, has;
        bool held;        /* down at some time since the last step */
        int button;
        double last_real; /* app time of the last real pointer event */
        bool driven;      /* the autopilot put it where it is (not a person) */
    } ptr;
    double last_input;   /* app time of the last key or pointer event */
    bool auto_on;        /* --auto or --demo: the autopilot drives the pointer */
    bool idle_on;        /* the scene was left alone: its autopilot keeps it going */
    double owed;         /* steps owed to the scene (fractional) */
    double now;          /* app time in seconds (advanced by frames) */
    double shown_at;     /* when the current scene was shown (hint) */
    double pressed_at;   /* when a person last pressed a button in the scene (the
                          * hint has been acted on once it is after shown_at) */
    double step_ms;      /* mean ms per step (exponential average) */
    int dropped, dropped_of; /* steps the frame's budget dropped, of how many due, */
    double dropped_at;   /* and when (app time): the HUD says so for APP_SLOW_SHOWN */
    bool step_cut;       /* ... and whether input cut the last one short (o.stop) */
    double demo_t0;
    bool demo;
    struct cast_status rec; /* the recording, as the HUD shows it (the terminal
                             * loop keeps it up to date; off when not recording) */
    bool shot_asked;     /* P: the frame saves the picture (shot.h) before it is drawn */
    char note[APP_NOTE_COLS]; /* what became of it, on the status line for a while */
    double note_at;      /* app time the note was given */
    int detail;          /* the frame loop's detail (tune.h; app_set_detail) */
    bool smaller_waits;  /* ... the current scene takes its smaller simulation at r */
};

/* A key binding, as the key handler runs it and the help lists it. */
struct app_binding {
    int key;
    int (*act)(struct app *a, int key);
    const char *keys;    /* NULL: not listed separately in the help */
    const char *help;
};
/* A binding's key that stands for the digits, one a scene of the table: '1'
 * shows scenes[0], '2' scenes[1]... up to SCENE_COUNT; the help lists those
 * keys (app_scene_keys) and the scenes' names before the binding's help. */
#define APP_KEY_SCENES (-2)
extern const struct app_binding app_bindings[];
extern const int app_nbindings;
/* The keys that switch to the scenes, one a scene of the table: "1 2 3", or
 * with range "1-3" (a single scene: "1"), for the help and the hints. */
void app_scene_keys(char *out, size_t n, bool range);

/* The help's lines into lines, unwrapped (the composer wraps them to the
 * window), a label column and its text each: the title, what swirl chose for
 * this terminal (colour, glyphs, whether frames show whole), then the extra
 * lines given (the link's figures, which the frame loop knows), the keys, the
 * scene's keys, mouse and wheel; returns how many. Written from app_bindings,
 * so it lists exactly what the keys do. */
int app_help(const struct app *a, const char *const *extra, int nextra,
             char (*lines)[APP_HELP_COLS], int max);
/* The help was shown with over lines below the window at the most (the frame
 * loop tells, after it drew it): Down scrolls that far, no further. */
void app_help_shown(struct app *a, int over);

/* Returns 0, or -1 when the first scene cannot be created (nothing to free). */
int app_init(struct app *a, const struct app_opts *o, int cols, int rows);
void app_free(struct app *a);
void app_resize(struct app *a, int cols, int rows);
int app_input(struct app *a, const struct input_event *ev);
/* Advances one frame of dt seconds; clock() reads a monotonic clock for timing.
 * The frame's steps stop once they have taken `budget` seconds of clock() (0:
 * no limit); the rest are dropped, and the HUD says so. */
void app_advance_within(struct app *a, double dt, double (*clock)(void), double budget);
/* Runs exactly n steps of the current scene over dt seconds of app time, with
 * the pointer (and --auto) as app_advance does; returns their wall time (s). */
double app_run_steps(struct app *a, double dt, int n, double (*clock)(void));
/* The detail the frame loop chose (tune.h): TUNE_FULL; TUNE_COARSE, the
 * scene drawn at the canvas's resolution and blitted as half-blocks (where
 * the glyphs draw finer); TUNE_SMALLER, its simulation smaller too (the
 * scenes made from now on too). The HUD says so. */
void app_set_detail(struct app *a, int level);
/* Image pixels a canvas pixel the scene is drawn at, and the glyphs its
 * picture is blitted in, at the detail in use. */
int app_draw_scale(const struct app *a);
enum glyph_set app_blit_glyphs(const struct app *a);
/* Statistics of the current scene as one JSON object (no newline); ms is the
 * step time to report. */
void app_json(const struct app *a, struct buf *out, double ms);
static inline const struct scene_ops *app_scene(const struct app *a) { return scenes[a->cur]; }
/* Does the HUD say the last frame was slow ([slow: ...])? Once it no longer
 * does, a paused picture is sent again (app.c), so the tag never outstays it. */
static inline bool app_slow_shown(const struct app *a)
{
    return (a->step_cut || a->dropped > 0) && a->now - a->dropped_at < APP_SLOW_SHOWN;
}
/* A note on the status line for APP_NOTE_SHOWN (what a key did: "saved
 * swirl-dye-1.png"); while paused, the picture is sent again once it has gone. */
void app_note(struct app *a, const char *text);
static inline bool app_note_shown(const struct app *a)
{
    return a->note[0] && a->now - a->note_at < APP_NOTE_SHOWN;
}
static inline bool app_too_small(const struct app *a)
{
    return a->cols < APP_MIN_COLS || a->rows < APP_MIN_ROWS;
}
/* The rows above the canvas: the tour's two caption rows, so that its words
 * never cover the scene (the scene is laid out below them, and takes the rows
 * back when a key takes over), where that leaves a canvas of the least size;
 * else none (the captions go over the scene). */
#define APP_CAPTION_ROWS 2
static inline int app_canvas_top(const struct app *a)
{
    return a->demo && !a->o.screensaver && a->rows - APP_CAPTION_ROWS >= APP_MIN_ROWS
               ? APP_CAPTION_ROWS : 0;
}
/* The canvas: every row but the captions' and the status line's (the latter's
 * too when it is hidden), two pixels a cell. */
static inline int app_canvas_rows(const struct app *a)
{
    return (a->status_off ? a->rows : a->rows - 1) - app_canvas_top(a);
}
static inline int app_canvas_w(const struct app *a) { return a->cols; }
static inline int app_canvas_h(const struct app *a) { return 2 * app_canvas_rows(a); }

#endif
