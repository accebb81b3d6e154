/*
 * app.c — scenes, keys, the pointer and the pacing of steps (see app.h).
 *
 * Keys map to actions through one const table, which also writes the help
 * overlay, so the help can never disagree with what a key does (htop's
 * Action.c); the digits are one entry, a key for each scene of the scene
 * table (APP_KEY_SCENES). Scenes keep their state while hidden: switching
 * back resumes.
 * Every pointer change, from the mouse, the keyboard pointer or --auto, takes
 * one path (pointer_set); each step then gets its share of the way it went.
 */
#include "app.h"
#include "pool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REAL_POINTER_HOLD 3.0 /* --auto resumes this long after the last real drag */
#define MAX_CATCHUP 3         /* a frame runs at most this many frames' worth of steps */

static int switch_scene(struct app *a, int i);

void app_opts_default(struct app_opts *o)
{
    memset(o, 0, sizeof *o);
    o->color = COLOR_TRUE;
    o->glyphs = GLYPHS_HALF;
    o->fps = 30;
    o->tolerance = APP_DEFAULT_TOLERANCE;
    o->sync = true;
    o->seed = 1;
    o->threads = 1;
    o->record_limit = APP_RECORD_LIMIT;
}

int app_init(struct app *a, const struct app_opts *o, int cols, int rows)
{
    memset(a, 0, sizeof *a);
    a->o = *o;
    a->so = (struct scene_opts){o->seed, o->preset_seed, o->grid_w, o->grid_h, NULL,
                             o->stop, cells_scale(o->glyphs), false};
    if (o->threads > 1 && !(a->so.pool = pool_create(o->threads)))
        return -1;
    a->cols = cols < 1 ? 1 : cols;
    a->rows = rows < 2 ? 2 : rows;
    a->auto_on = o->autopilot || o->demo;
    a->demo = o->demo;
    a->status_off = o->no_status || o->screensaver;
    a->ptr.last_real = -1e9;
    a->pressed_at = -1e9;
    a->last_input = -1e9;
    a->kbd_button_at = -1e9;
    a->cur = -1;
    if (switch_scene(a, o->scene) != 0) {
        app_free(a);
        return -1;
    }
    return 0;
}

void app_free(struct app *a)
{
    for (int i = 0; i < SCENE_COUNT; i++)
        if (a->st[i])
            scenes[i]->destroy(a->st[i]);
    memset(a->st, 0, sizeof a->st);
    pool_destroy(a->so.pool);
    a->so.pool = NULL;
}

/* Lets go in the current scene (before leaving it). */
static void let_go(struct app *a)
{
    float at[4] = {a->ptr.x, a->ptr.y, a->ptr.x, a->ptr.y};
    struct pointer p = {.released = true, .x0 = a->ptr.x, .y0 = a->ptr.y, .x1 = a->ptr.x,
                        .y1 = a->ptr.y, .path = at, .npath = 2,
                        .dt = 1.0f / (float)APP_REF_FPS};
    app_scene(a)->step(a->st[a->cur], &p);
    a->ptr.scene_down = false;
}

/* A new scene starts clean: nothing the pointer did in the last one (held,
 * where it went, how fast) reaches its first step. A button still held is a
 * new stroke when it moves again (a drag report, the autopilot), and the path
 * starts afresh at the pointer's next position, so no chord from the old
 * scene's last position is taken for a throw or a push. */
static void pointer_forget(struct app *a)
{
    a->ptr.down = a->ptr.pressed = a->ptr.held = a->ptr.driven = false;
    a->ptr.has = false;
    path_start(&a->ptr.path, a->ptr.x, a->ptr.y);
}

/* Scene i, just built: the --set options for it (from the command line or the
 * config file), whichever scene came first. */
static int apply_sets(struct app *a, int i)
{
    for (int k = 0; k < a->o.nsets; k++)
        if (a->o.sets[k].scene == i &&
            scene_param_set(scenes[i], a->st[i], a->o.sets[k].param, a->o.sets[k].value) != 0)
            return -1;
    return 0;
}

/* The current scene told the detail (app_set_detail); whether it must wait
 * for r to take it. */
static void tell_detail(struct app *a)
{
    const struct scene_ops *s = app_scene(a);
    a->smaller_waits = s->detail && !s->detail(a->st[a->cur], a->so.px_scale, a->so.smaller);
}

void app_set_detail(struct app *a, int level)
{
    a->detail = clampi(level, TUNE_FULL, TUNE_SMALLER);
    a->so.px_scale = app_draw_scale(a);
    a->so.smaller = a->detail == TUNE_SMALLER;
    if (a->cur >= 0 && a->st[a->cur])
        tell_detail(a);
}

int app_draw_scale(const struct app *a)
{
    return a->detail >= TUNE_COARSE ? 1 : cells_scale(a->o.glyphs);
}

enum glyph_set app_blit_glyphs(const struct app *a)
{
    return app_draw_scale(a) < cells_scale(a->o.glyphs) ? GLYPHS_HALF : a->o.glyphs;
}

/* Shows scene i (creating it on first use); returns 0, or -1 when it cannot be
 * created (the current scene stays). */
static int switch_scene(struct app *a, int i)
{
    i = clampi(i, 0, SCENE_COUNT - 1);
    int w = app_canvas_w(a), h = app_canvas_h(a);
    if (app_too_small(a))
        w = APP_MIN_COLS, h = 2 * (APP_MIN_ROWS - 1); /* a usable size until it grows */
    if (!a->st[i]) {
        a->st[i] = scenes[i]->create(&a->so, w, h);
        if (a->st[i] && apply_sets(a, i) != 0) {
            scenes[i]->destroy(a->st[i]);
            a->st[i] = NULL;
        }
    } else if (!app_too_small(a)) {
        scenes[i]->resize(a->st[i], w, h);
    }
    if (!a->st[i])
        return -1;
    if (a->cur >= 0 && a->cur != i && a->ptr.scene_down)
        let_go(a);
    if (a->cur != i) {
        a->picture++; /* a new picture: nothing of the old may linger */
        pointer_forget(a);
        a->idle_on = false; /* left alone counts from when it is shown */
    }
    a->cur = i;
    a->sel = 0;
    a->shown_at = a->now;
    a->owed = 0.0;
    tell_detail(a); /* a scene made or last shown at another detail */
    return 0;
}

void app_note(struct app *a, const char *text)
{
    snprintf(a->note, sizeof a->note, "%s", text);
    a->note_at = a->now;
}

void app_resize(struct app *a, int cols, int rows)
{
    a->cols = cols < 1 ? 1 : cols;
    a->rows = rows < 2 ? 2 : rows;
    if (app_too_small(a))
        return;
    for (int i = 0; i < SCENE_COUNT; i++)
        if (a->st[i])
            scenes[i]->resize(a->st[i], app_canvas_w(a), app_canvas_h(a));
}

/* ---- pointer ------------------------------------------------------------- */

static void pointer_to(struct app *a, float x, float y)
{
    a->ptr.x = clampf(x, 0.0f, (float)app_canvas_w(a));
    a->ptr.y = clampf(y, 0.0f, (float)app_canvas_h(a));
    if (!a->ptr.has) {
        a->ptr.has = true;
        path_start(&a->ptr.path, a->ptr.x, a->ptr.y);
        return;
    }
    path_add(&a->ptr.path, a->ptr.x, a->ptr.y);
}

/* The one path every pointer change takes: real mouse, keyboard pointer, --auto. */
static void pointer_set(struct app *a, float x, float y, bool down, int button)
{
    pointer_to(a, x, y);
    if (down && !a->ptr.down) {
        a->ptr.pressed = true;
        path_start(&a->ptr.path, a->ptr.x, a->ptr.y); /* a new stroke starts here */
    }
    a->ptr.down = down;
    if (down)
        a->ptr.button = button, a->ptr.held = true;
}

static float cell_x(int col) { return (float)col + 0.5f; }
static float cell_y(int row) { return 2.0f * (float)row + 1.0f; }

static void mouse(struct app *a, const struct input_event *ev)
{
    /* Reports from outside the window (a terminal may send any number) count
     * as its edge. */
    if (ev->button >= INPUT_BUTTON_EXTRA)
        return; /* back, forward...: no part in pushing things around */
    float x = cell_x(clampi(ev->x, 0, a->cols - 1));
    float y = cell_y(clampi(ev->y - app_canvas_top(a), 0, app_canvas_rows(a) - 1));
    a->ptr.last_real = a->now;
    switch (ev->action) {
    case MOUSE_PRESS:
        if (ev->button == 0 || ev->button == 2)
            pointer_set(a, x, y, true, ev->button), a->pressed_at = a->now;
        break;
    case MOUSE_DRAG:
        pointer_set(a, x, y, a->ptr.down || ev->button == 0 || ev->button == 2,
                    a->ptr.down ? a->ptr.button : ev->button);
        break;
    case MOUSE_RELEASE:
        pointer_set(a, x, y, false, a->ptr.button);
        break;
    case MOUSE_MOVE:
        pointer_to(a, x, y);
        break;
    case MOUSE_WHEEL:
        if (app_scene(a)->zoom)
            app_scene(a)->zoom(a->st[a->cur], x, y, ev->button);
        break;
    }
}

/* ---- keys ---------------------------------------------------------------- */

static int act_quit(struct app *a, int k)
{
    (void)k;
    a->quit = true;
    return APP_QUIT;
}
static int act_escape(struct app *a, int k)
{
    if (a->help || a->panel) {
        a->help = a->panel = false;
        return APP_NONE;
    }
    return act_quit(a, k);
}
static int act_pause(struct app *a, int k)
{
    (void)k;
    a->paused = !a->paused;
    if (!a->paused)
        a->picture++; /* a resume repaints: whatever the screen gathered meanwhile goes */
    return APP_NONE;
}
/* Ctrl-L: send every cell again, as other full-screen programs do. */
static int act_repaint(struct app *a, int k)
{
    (void)k;
    a->picture++;
    return APP_NONE;
}
static int act_step(struct app *a, int k)
{
    (void)k;
    if (a->paused)
        a->step_once = true;
    return APP_NONE;
}
static int act_restart(struct app *a, int k)
{
    (void)k;
    app_scene(a)->restart(a->st[a->cur]);
    tell_detail(a); /* r takes the smaller simulation that waited for it */
    a->shown_at = a->now;
    a->ptr.held = a->ptr.down; /* a stroke let go before it ends with the old scene */
    return APP_NONE;
}
/* R: the scene as it starts, with its default parameters (a way back from
 * settings that blew it up). */
static int act_reset(struct app *a, int k)
{
    (void)k;
    const struct scene_ops *s = app_scene(a);
    void *fresh = s->create(&a->so, app_canvas_w(a) < APP_MIN_COLS ? APP_MIN_COLS
                                                                    : app_canvas_w(a),
                            app_too_small(a) ? 2 * (APP_MIN_ROWS - 1) : app_canvas_h(a));
    if (!fresh)
        return APP_NONE; /* out of memory: keep what there is */
    s->destroy(a->st[a->cur]);
    a->st[a->cur] = fresh;
    tell_detail(a);
    a->ptr.scene_down = false;
    a->ptr.held = a->ptr.down;
    a->shown_at = a->now;
    a->dropped = 0;
    a->step_cut = false;
    return APP_NONE;
}
static int act_help(struct app *a, int k)
{
    (void)k;
    a->help = !a->help;
    a->help_top = 0;
    a->help_over = APP_HELP_LINES;
    return APP_NONE;
}

void app_help_shown(struct app *a, int over)
{
    a->help_over = over > 0 ? over : 0;
    a->help_top = clampi(a->help_top, 0, a->help_over);
}
static int act_panel(struct app *a, int k)
{
    (void)k;
    a->panel = !a->panel;
    return APP_NONE;
}
static int act_scene(struct app *a, int k)
{
    int i = k == IK_TAB ? a->cur + 1 : k == IK_BACKTAB ? a->cur + SCENE_COUNT - 1 : k - '1';
    switch_scene(a, i % SCENE_COUNT);
    return APP_NONE;
}
/* s: the status line off and on; the canvas grows into its row and back. */
static int act_status(struct app *a, int k)
{
    (void)k;
    a->status_off = !a->status_off;
    app_resize(a, a->cols, a->rows);
    a->picture++;
    return APP_NONE;
}
static int act_kbd(struct app *a, int k)
{
    (void)k;
    a->kbd = !a->kbd;
    if (a->kbd && !a->ptr.has)
        pointer_to(a, (float)app_canvas_w(a) * 0.5f, (float)app_canvas_h(a) * 0.5f);
    if (!a->kbd && a->ptr.down)
        pointer_set(a, a->ptr.x, a->ptr.y, false, 0);
    return APP_NONE;
}
/* - and +: the selected parameter, with the panel open (a stray key with the
 * panel closed changes nothing). */
static int act_param(struct app *a, int k)
{
    if (a->panel && app_scene(a)->nparams)
        scene_param_step(app_scene(a), a->st[a->cur], a->sel, k == '-' ? -1 : +1);
    return APP_NONE;
}
/* Arrows: the panel's selection and value when it is open, else the keyboard
 * pointer when it is on (a cell a step: one pixel across, two down). */
static int act_arrow(struct app *a, int k)
{
    int dx = k == IK_LEFT ? -1 : k == IK_RIGHT ? 1 : 0, dy = k == IK_UP ? -1 : k == IK_DOWN ? 1 : 0;
    int n = app_scene(a)->nparams;
    if (a->help) /* scroll the help when it is taller than the window */
        a->help_top = clampi(a->help_top + dy, 0, a->help_over);
    else if (a->panel && n && dy)
        a->sel = (a->sel + n + dy) % n;
    else if (a->panel && dx)
        act_param(a, dx < 0 ? '-' : '+');
    else if (a->kbd && !a->panel) {
        pointer_set(a, a->ptr.x + (float)dx, a->ptr.y + 2.0f * (float)dy, a->ptr.down,
                    a->ptr.button);
        a->ptr.last_real = a->now;
    }
    return APP_NONE;
}
/* Space: the keyboard pointer's button when it is on, else pause. A press
 * takes the button down or lets it go; a held key's autorepeats change
 * nothing, so holding it is one press. A repeat is the same key again within
 * APP_KEY_REPEAT of its last press or repeat: the window is measured from the
 * last one, so a hold of any length is one press. */
static int act_space(struct app *a, int k)
{
    if (!a->kbd)
        return act_pause(a, k);
    bool repeat = k == a->kbd_button_key && a->now - a->kbd_button_at < APP_KEY_REPEAT;
    a->kbd_button_at = a->now;
    a->kbd_button_key = k;
    if (!repeat)
        pointer_set(a, a->ptr.x, a->ptr.y, !a->ptr.down, 0), a->pressed_at = a->now;
    a->ptr.last_real = a->now;
    return APP_NONE;
}
static int act_shot(struct app *a, int k)
{
    (void)k;
    a->shot_asked = true; /* the frame knows the cells' pixels (shot.h) */
    return APP_NONE;
}
static int act_enter(struct app *a, int k)
{
    if (a->kbd)
        return act_space(a, k);
    return APP_NONE;
}

const struct app_binding app_bindings[] = {
    {APP_KEY_SCENES, act_scene, NULL, "(each keeps its state)"},
    {IK_TAB, act_scene, "Tab", "next scene (Shift-Tab: previous)"},
    {IK_BACKTAB, act_scene, NULL, NULL},
    {' ', act_space, "Space", "pause / resume"},
    {'.', act_step, ".", "advance one frame while paused"},
    {'r', act_restart, "r", "restart the scene"},
    {'R', act_reset, "R", "reset the scene to its default parameters"},
    {'p', act_panel, "p", "parameter panel"},
    {IK_UP, act_arrow, "Up Down", "select a parameter (or scroll this help)"},
    {IK_DOWN, act_arrow, NULL, NULL},
    {IK_LEFT, act_arrow, "Left Right", "change it (also - and +)"},
    {IK_RIGHT, act_arrow, NULL, NULL},
    {'-', act_param, NULL, NULL},
    {'+', act_param, NULL, NULL},
    {'=', act_param, NULL, NULL},
    {'m', act_kbd, "m", "keyboard pointer: arrows move it, Space/Enter press or let go (a "
                        "held key counts once)"},
    {IK_ENTER, act_enter, NULL, NULL},
    {'s', act_status, "s", "status line off / on"},
    {'P', act_shot, "P", "save the picture, as fine as the window's pixels, as "
                         "swirl-SCENE-N.png here"},
    {'L' - 64, act_repaint, "Ctrl-L", "repaint the whole screen"},
    {'?', act_help, "?", "this help"},
    {'h', act_help, NULL, NULL},
    {'q', act_quit, "q Esc", "quit (Esc first closes a panel)"},
    {IK_ESC, act_escape, NULL, NULL},
};
const int app_nbindings = (int)(sizeof app_bindings / sizeof app_bindings[0]);

/* The digits 1..9 are the scenes' keys: ten scenes would need another key. */
_Static_assert(SCENE_COUNT >= 1 && SCENE_COUNT <= 9, "a digit key for each scene");

/* Whether binding b answers key k. */
static bool binding_is(const struct app_binding *b, int k)
{
    return b->key == APP_KEY_SCENES ? k >= '1' && k < '1' + SCENE_COUNT : k == b->key;
}

static int key(struct app *a, int k)
{
    if (a->o.screensaver) /* any key ends a screensaver */
        return act_quit(a, k);
    if (a->demo) { /* any key ends the tour and hands over */
        a->demo = false;
        app_resize(a, a->cols, a->rows); /* the captions' rows are the scene's again */
        a->auto_on = a->o.autopilot;
        if (!a->auto_on && a->ptr.down)
            pointer_set(a, a->ptr.x, a->ptr.y, false, a->ptr.button); /* the tour lets go */
        if (k != 'q' && k != IK_ESC)
            return APP_NONE;
    }
    for (int i = 0; i < app_nbindings; i++)
        if (app_bindings[i].act && binding_is(&app_bindings[i], k))
            return app_bindings[i].act(a, k);
    if (app_scene(a)->key)
        app_scene(a)->key(a->st[a->cur], k);
    return APP_NONE;
}

/* A person is here: the autopilot's stroke ends at once, not joined to theirs.
 * A pointer event takes over from any autopilot; a key from all but --auto's
 * (which keys do not stop), and it ends a scene's idle autopilot. The scene is
 * told the old stroke let go at its next step (or it gets a new press there). */
static void take_over(struct app *a, bool is_key)
{
    a->last_input = a->now;
    if (is_key && a->o.autopilot && a->auto_on)
        return;
    a->idle_on = false;
    if (a->ptr.driven)
        pointer_forget(a);
}

int app_input(struct app *a, const struct input_event *ev)
{
    switch (ev->type) {
    case INPUT_KEY:
        if (ev->alt)
            return APP_NONE;
        take_over(a, true);
        return key(a, ev->key);
    case INPUT_MOUSE:
        if (a->o.screensaver) /* so does any button or wheel, but not mere motion */
            return ev->action == MOUSE_MOVE ? APP_NONE : act_quit(a, 0);
        take_over(a, false);
        if (a->demo && ev->action == MOUSE_PRESS)
            key(a, 0);
        mouse(a, ev);
        return APP_NONE;
    default:
        return APP_NONE;
    }
}

/* ---- stepping ------------------------------------------------------------ */

/* Whether the scene has been left alone long enough for its idle autopilot:
 * no key and no pointer event for its idle_auto seconds since it was shown. */
static bool left_alone(const struct app *a)
{
    double quiet = app_scene(a)->idle_auto;
    double since = a->last_input > a->shown_at ? a->last_input : a->shown_at;
    return quiet > 0.0 && !a->auto_on && !a->kbd && !a->paused && a->now - since >= quiet;
}

static void autopilot(struct app *a)
{
    if (!a->idle_on && left_alone(a))
        a->idle_on = true;
    bool on = a->auto_on ? a->now - a->ptr.last_real >= REAL_POINTER_HOLD : a->idle_on;
    if (!on || a->kbd)
        return;
    float x, y;
    bool down;
    int button;
    app_scene(a)->autopilot(a->st[a->cur], a->now - a->shown_at, app_canvas_w(a),
                            app_canvas_h(a), &x, &y, &down, &button);
    pointer_set(a, x, y, down, button);
    a->ptr.driven = true;
}

/* The tour's scene for the frame ending at app time t: switched before the
 * frame's steps are counted, so its first frame has the new scene's steps and
 * its autopilot starts one frame in, as a scene started afresh does. */
static void demo_tour(struct app *a, double t)
{
    if (!a->demo)
        return;
    int want = (int)((t - a->demo_t0) / APP_DEMO_SCENE_SECONDS) % SCENE_COUNT;
    if (want != a->cur) {
        switch_scene(a, want);
        app_scene(a)->restart(a->st[a->cur]);
        tell_detail(a);
    }
}

/* n steps over dt, each with its share of the pointer's path; with a budget
 * (seconds of clock()), the steps stop once it is spent and the rest of the
 * frame's are dropped (counted for the HUD): input is read again in time
 * whatever a step costs. A raised o.stop (input waiting) has cut the step
 * under way short: the rest are dropped too, and the HUD says why. */
static double run_steps(struct app *a, double dt, int n, double (*clock)(void), double budget)
{
    demo_tour(a, a->now + dt);
    const bool slow = app_slow_shown(a), noted = app_note_shown(a);
    a->now += dt;
    /* The HUD's slow tag or note has gone stale: a paused picture, which is
     * only sent again when something changed, is sent again without it. */
    if (((slow && !app_slow_shown(a)) || (noted && !app_note_shown(a))) && a->paused)
        a->picture++;
    autopilot(a);
    if (app_too_small(a) || n <= 0)
        return 0.0;
    const struct scene_ops *s = app_scene(a);
    void *st = a->st[a->cur];
    /* Held at any time since the last step: a drag whose release came within
     * this frame still moves the scene along all of its path; the release is
     * the next frame's. */
    bool want = a->ptr.down || a->ptr.pressed || a->ptr.held;
    struct pointer p = {0};
    float piece[2 * PATH_POINTS];
    const struct path *path = &a->ptr.path;
    float total = path_length(path);
    p.button = a->ptr.button;
    p.dt = (float)(dt / n);
    if (dt > 0) {
        p.vx = (a->ptr.x - path->xy[0]) / (float)dt;
        p.vy = (a->ptr.y - path->xy[1]) / (float)dt;
    }
    p.path = piece;
    double t0 = clock();
    for (int k = 0; k < n; k++) {
        p.pressed = k == 0 && want && (!a->ptr.scene_down || a->ptr.pressed);
        p.released = k == 0 && !want && a->ptr.scene_down;
        p.down = want;
        /* Each step gets its share of the way the pointer went, by length. */
        p.npath = path_piece(path, total * (float)k / (float)n,
                             total * (float)(k + 1) / (float)n, piece);
        p.x0 = piece[0], p.y0 = piece[1];
        p.x1 = piece[2 * p.npath - 2], p.y1 = piece[2 * p.npath - 1];
        s->step(st, &p);
        a->ptr.scene_down = want;
        bool cut = a->o.stop && atomic_load(a->o.stop);
        if (cut || (budget > 0.0 && k + 1 < n && clock() - t0 > budget)) {
            a->dropped = n - (k + 1), a->dropped_of = n, a->dropped_at = a->now;
            a->step_cut = cut;
            n = k + 1;
        }
    }
    double wall = clock() - t0;
    double ms = wall * 1000.0 / n;
    a->step_ms = a->step_ms > 0 ? 0.9 * a->step_ms + 0.1 * ms : ms;
    a->steps[a->cur] += n;
    tell_detail(a); /* a scene may rebuild itself (the cloth mends when it fell away) */
    path_start(&a->ptr.path, a->ptr.x, a->ptr.y);
    a->ptr.pressed = false;
    a->ptr.held = a->ptr.down;
    return wall;
}

double app_run_steps(struct app *a, double dt, int n, double (*clock)(void))
{
    return run_steps(a, dt, n, clock, 0.0);
}

void app_advance_within(struct app *a, double dt, double (*clock)(void), double budget)
{
    demo_tour(a, a->now + dt);
    int spf = app_scene(a)->steps_per_frame(a->st[a->cur]);
    int n;
    if (a->paused) {
        n = a->step_once ? spf : 0;
        a->step_once = false;
        a->owed = 0.0;
    } else {
        double due = (double)spf * dt * APP_REF_FPS; /* steps this frame stands for */
        a->owed += due;
        n = (int)(a->owed + 1e-9);
        a->owed -= n;
        if (n > MAX_CATCHUP * ((int)due + 1)) { /* a long gap: do not try to catch up */
            n = MAX_CATCHUP * ((int)due + 1);
            a->owed = 0.0;
        }
    }
    run_steps(a, dt, n, clock, budget);
}

void app_json(const struct app *a, struct buf *out, double ms)
{
    buf_printf(out, "{\"scene\":\"%s\",\"step\":%ld,", app_scene(a)->name, a->steps[a->cur]);
    app_scene(a)->json(a->st[a->cur], out);
    buf_printf(out, ",\"ms\":%.4f}", ms);
}
