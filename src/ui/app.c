/*
 * app.c — scenes, keys, pointer and frame composition (see app.h).
 *
 * Keys map to actions through one const table, which also writes the help
 * overlay, so the help can never disagree with what a key does (htop's
 * Action.c). Scenes keep their state while hidden: switching back resumes.
 */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rgb_t hud_fg = RGB(225, 225, 230), hud_bg = RGB(28, 28, 40);
static const rgb_t hud_key = RGB(255, 200, 90), hud_dim = RGB(150, 150, 165);
static const rgb_t box_bg = RGB(16, 16, 26), box_sel = RGB(60, 60, 100);

#define HINT_SECONDS 3.0
#define HINT_FADE 2.0
#define REAL_POINTER_HOLD 3.0 /* --auto resumes this long after the last real drag */
#define MAX_CATCHUP 3         /* a frame runs at most this many frames' worth of steps */
#define DEMO_SCENE_SECONDS 9.0

const struct scene_ops *const scenes[SCENE_COUNT] = {&scene_dye, &scene_pbf, &scene_cloth};

const struct scene_ops *scene_find(const char *name)
{
    for (int i = 0; i < SCENE_COUNT; i++)
        if (strcmp(scenes[i]->name, name) == 0)
            return scenes[i];
    return NULL;
}

static int canvas_w(const struct app *a) { return a->cols; }
static int canvas_h(const struct app *a) { return 2 * (a->rows - 1); }

int app_init(struct app *a, const struct app_opts *o, int cols, int rows)
{
    memset(a, 0, sizeof *a);
    a->o = *o;
    a->so = (struct scene_opts){o->seed, o->preset_seed, o->grid_w, o->grid_h};
    a->cols = cols < 1 ? 1 : cols;
    a->rows = rows < 2 ? 2 : rows;
    a->auto_on = o->autopilot || o->demo;
    a->demo = o->demo;
    a->ptr.last_real = -1e9;
    image_init(&a->img, canvas_w(a), canvas_h(a) > 0 ? canvas_h(a) : 1);
    cells_init(&a->cells, a->cols, a->rows);
    encode_init(&a->enc, o->color, o->tolerance, o->sync);
    a->cur = -1;
    app_switch(a, o->scene);
    return a->st[a->cur] ? 0 : -1;
}

void app_free(struct app *a)
{
    for (int i = 0; i < SCENE_COUNT; i++)
        if (a->st[i])
            scenes[i]->destroy(a->st[i]);
    image_free(&a->img);
    cells_free(&a->cells);
    encode_free(&a->enc);
}

void app_switch(struct app *a, int i)
{
    i = clampi(i, 0, SCENE_COUNT - 1);
    int w = canvas_w(a), h = canvas_h(a);
    if (w < APP_MIN_COLS || h < 2 * (APP_MIN_ROWS - 1))
        w = APP_MIN_COLS, h = 2 * (APP_MIN_ROWS - 1); /* a usable size until it grows */
    if (!a->st[i])
        a->st[i] = scenes[i]->create(&a->so, w, h);
    else if (!app_too_small(a))
        scenes[i]->resize(a->st[i], w, h);
    if (!a->st[i])
        return;
    if (a->cur >= 0 && a->cur != i && a->ptr.scene_down) {
        /* Let go in the old scene before leaving it. */
        float at[4] = {a->ptr.x, a->ptr.y, a->ptr.x, a->ptr.y};
        struct pointer p = {.released = true, .x0 = a->ptr.x, .y0 = a->ptr.y, .x1 = a->ptr.x,
                            .y1 = a->ptr.y, .path = at, .npath = 2,
                            .dt = 1.0f / (float)APP_REF_FPS};
        scenes[a->cur]->step(a->st[a->cur], &p);
        a->ptr.scene_down = false;
    }
    if (a->cur != i)
        encode_invalidate(&a->enc); /* a new picture: nothing of the old may linger */
    a->cur = i;
    a->sel = 0;
    a->shown_at = a->now;
    a->owed = 0.0;
}

void app_resize(struct app *a, int cols, int rows)
{
    a->cols = cols < 1 ? 1 : cols;
    a->rows = rows < 2 ? 2 : rows;
    cells_resize(&a->cells, a->cols, a->rows);
    encode_invalidate(&a->enc);
    if (app_too_small(a))
        return;
    image_resize(&a->img, canvas_w(a), canvas_h(a));
    for (int i = 0; i < SCENE_COUNT; i++)
        if (a->st[i])
            scenes[i]->resize(a->st[i], canvas_w(a), canvas_h(a));
}

/* ---- pointer ------------------------------------------------------------- */

/* Starts the pointer's path afresh at where it is. */
static void path_reset(struct app *a)
{
    a->ptr.path[0] = a->ptr.x, a->ptr.path[1] = a->ptr.y;
    a->ptr.npath = 1;
}

static void pointer_to(struct app *a, float x, float y)
{
    a->ptr.x = clampf(x, 0.0f, (float)canvas_w(a));
    a->ptr.y = clampf(y, 0.0f, (float)canvas_h(a));
    if (!a->ptr.has) {
        a->ptr.has = true;
        path_reset(a);
        return;
    }
    int n = a->ptr.npath;
    if (a->ptr.path[2 * n - 2] == a->ptr.x && a->ptr.path[2 * n - 1] == a->ptr.y)
        return;
    if (n == APP_PATH_MAX) /* full: the newest report replaces the last */
        n--;
    a->ptr.path[2 * n] = a->ptr.x, a->ptr.path[2 * n + 1] = a->ptr.y;
    a->ptr.npath = n + 1;
}

/* The one path every pointer change takes: real mouse, keyboard pointer, --auto. */
static void pointer_set(struct app *a, float x, float y, bool down, int button)
{
    pointer_to(a, x, y);
    if (down && !a->ptr.down) {
        a->ptr.pressed = true;
        path_reset(a); /* a new stroke starts here */
    }
    a->ptr.down = down;
    if (down)
        a->ptr.button = button;
}

/* The point at arc length s along the path, and the index of the segment it is on. */
static void path_at(const float *path, int n, float s, float *x, float *y, int *seg)
{
    for (int i = 0; i + 1 < n; i++) {
        float dx = path[2 * i + 2] - path[2 * i], dy = path[2 * i + 3] - path[2 * i + 1];
        float len = sqrtf(dx * dx + dy * dy);
        if (s <= len || i + 2 == n) {
            float t = len > 0.0f ? clampf(s / len, 0.0f, 1.0f) : 1.0f;
            *x = path[2 * i] + dx * t, *y = path[2 * i + 1] + dy * t;
            *seg = i;
            return;
        }
        s -= len;
    }
    *x = path[0], *y = path[1];
    *seg = 0;
}

/* The piece of the path between arc lengths s0 and s1, as points into out. */
static int path_piece(const float *path, int n, float s0, float s1, float *out)
{
    int seg0, seg1, m = 0;
    path_at(path, n, s0, &out[0], &out[1], &seg0);
    m = 1;
    float ex, ey;
    path_at(path, n, s1, &ex, &ey, &seg1);
    for (int i = seg0 + 1; i <= seg1 && m < APP_PATH_MAX - 1; i++) {
        out[2 * m] = path[2 * i], out[2 * m + 1] = path[2 * i + 1];
        m++;
    }
    out[2 * m] = ex, out[2 * m + 1] = ey;
    return m + 1;
}

static float cell_x(int col) { return (float)col + 0.5f; }
static float cell_y(int row) { return 2.0f * (float)row + 1.0f; }

static void mouse(struct app *a, const struct input_event *ev)
{
    float x = cell_x(ev->x), y = cell_y(ev->y);
    a->ptr.last_real = a->now;
    switch (ev->action) {
    case MOUSE_PRESS:
        if (ev->button == 0 || ev->button == 2)
            pointer_set(a, x, y, true, ev->button);
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

static int act_quit(struct app *a)
{
    a->quit = true;
    return APP_QUIT;
}
static int act_escape(struct app *a)
{
    if (a->help || a->panel) {
        a->help = a->panel = false;
        return APP_NONE;
    }
    return act_quit(a);
}
static int act_pause(struct app *a)
{
    a->paused = !a->paused;
    return APP_NONE;
}
static int act_step(struct app *a)
{
    if (a->paused)
        a->step_once = true;
    return APP_NONE;
}
static int act_restart(struct app *a)
{
    app_scene(a)->restart(a->st[a->cur]);
    a->shown_at = a->now;
    return APP_NONE;
}
static int act_help(struct app *a)
{
    a->help = !a->help;
    return APP_NONE;
}
static int act_panel(struct app *a)
{
    a->panel = !a->panel;
    return APP_NONE;
}
static int act_next(struct app *a)
{
    app_switch(a, (a->cur + 1) % SCENE_COUNT);
    return APP_NONE;
}
static int act_prev(struct app *a)
{
    app_switch(a, (a->cur + SCENE_COUNT - 1) % SCENE_COUNT);
    return APP_NONE;
}
static int act_scene1(struct app *a) { app_switch(a, 0); return APP_NONE; }
static int act_scene2(struct app *a) { app_switch(a, 1); return APP_NONE; }
static int act_scene3(struct app *a) { app_switch(a, 2); return APP_NONE; }
static int act_kbd(struct app *a)
{
    a->kbd = !a->kbd;
    if (a->kbd && !a->ptr.has)
        pointer_to(a, (float)canvas_w(a) * 0.5f, (float)canvas_h(a) * 0.5f);
    if (!a->kbd && a->ptr.down)
        pointer_set(a, a->ptr.x, a->ptr.y, false, 0);
    return APP_NONE;
}

static void param_change(struct app *a, int dir)
{
    const struct scene_ops *s = app_scene(a);
    if (!s->nparams)
        return;
    const struct param_def *d = &s->params[a->sel];
    float *v = s->param(a->st[a->cur], a->sel);
    float nv;
    if ((d->flags & PARAM_ZERO) && *v == 0.0f)
        nv = dir > 0 ? d->min : 0.0f; /* from off to the smallest value */
    else if (d->flags & PARAM_LOG)
        nv = dir > 0 ? *v * d->step : *v / d->step;
    else
        nv = *v + (float)dir * d->step;
    if ((d->flags & PARAM_ZERO) && nv < d->min * 0.999f) {
        if (*v == 0.0f)
            return;
        *v = 0.0f; /* below the smallest value: off */
        s->param_changed(a->st[a->cur], a->sel);
        return;
    }
    if (d->flags & (PARAM_INT | PARAM_BOOL))
        nv = roundf(nv);
    /* Snap sums of float steps onto the step grid so 0.1+0.2 shows as 0.3. */
    else if (!(d->flags & PARAM_LOG))
        nv = roundf(nv / d->step) * d->step;
    nv = clampf(nv, d->min, d->max);
    if (nv == *v)
        return;
    *v = nv;
    s->param_changed(a->st[a->cur], a->sel);
}

static int act_up(struct app *a)
{
    if (a->panel && app_scene(a)->nparams) {
        a->sel = (a->sel + app_scene(a)->nparams - 1) % app_scene(a)->nparams;
    } else if (a->kbd) {
        pointer_set(a, a->ptr.x, a->ptr.y - 2.0f, a->ptr.down, a->ptr.button);
        a->ptr.last_real = a->now;
    }
    return APP_NONE;
}
static int act_down(struct app *a)
{
    if (a->panel && app_scene(a)->nparams) {
        a->sel = (a->sel + 1) % app_scene(a)->nparams;
    } else if (a->kbd) {
        pointer_set(a, a->ptr.x, a->ptr.y + 2.0f, a->ptr.down, a->ptr.button);
        a->ptr.last_real = a->now;
    }
    return APP_NONE;
}
static int act_left(struct app *a)
{
    if (a->panel) {
        param_change(a, -1);
    } else if (a->kbd) {
        pointer_set(a, a->ptr.x - 1.0f, a->ptr.y, a->ptr.down, a->ptr.button);
        a->ptr.last_real = a->now;
    }
    return APP_NONE;
}
static int act_right(struct app *a)
{
    if (a->panel) {
        param_change(a, +1);
    } else if (a->kbd) {
        pointer_set(a, a->ptr.x + 1.0f, a->ptr.y, a->ptr.down, a->ptr.button);
        a->ptr.last_real = a->now;
    }
    return APP_NONE;
}
static int act_minus(struct app *a)
{
    param_change(a, -1);
    return APP_NONE;
}
static int act_plus(struct app *a)
{
    param_change(a, +1);
    return APP_NONE;
}
/* Space: the keyboard pointer's button when it is on, else pause. */
static int act_space(struct app *a)
{
    if (!a->kbd)
        return act_pause(a);
    pointer_set(a, a->ptr.x, a->ptr.y, !a->ptr.down, 0);
    a->ptr.last_real = a->now;
    return APP_NONE;
}
static int act_enter(struct app *a)
{
    if (a->kbd)
        return act_space(a);
    return APP_NONE;
}

struct binding {
    int key;
    int (*act)(struct app *a);
    const char *keys; /* NULL: not listed separately in the help */
    const char *help;
};

static const struct binding bindings[] = {
    {'1', act_scene1, "1 2 3", "dye, pbf, cloth (each keeps its state)"},
    {'2', act_scene2, NULL, NULL},
    {'3', act_scene3, NULL, NULL},
    {IK_TAB, act_next, "Tab", "next scene (Shift-Tab: previous)"},
    {IK_BACKTAB, act_prev, NULL, NULL},
    {' ', act_space, "Space", "pause / resume"},
    {'.', act_step, ".", "advance one frame while paused"},
    {'r', act_restart, "r", "restart the scene"},
    {'p', act_panel, "p", "parameter panel"},
    {IK_UP, act_up, "Up Down", "select a parameter"},
    {IK_DOWN, act_down, NULL, NULL},
    {IK_LEFT, act_left, "Left Right", "change it (also - and +)"},
    {IK_RIGHT, act_right, NULL, NULL},
    {'-', act_minus, NULL, NULL},
    {'+', act_plus, NULL, NULL},
    {'=', act_plus, NULL, NULL},
    {'m', act_kbd, "m", "keyboard pointer: arrows move, Space/Enter hold"},
    {IK_ENTER, act_enter, NULL, NULL},
    {'?', act_help, "?", "this help"},
    {'h', act_help, NULL, NULL},
    {'q', act_quit, "q Esc", "quit (Esc first closes a panel)"},
    {IK_ESC, act_escape, NULL, NULL},
};

static int key(struct app *a, int k)
{
    if (a->demo) { /* any key ends the tour and hands over */
        a->demo = false;
        a->auto_on = a->o.autopilot;
        if (!a->auto_on && a->ptr.down)
            pointer_set(a, a->ptr.x, a->ptr.y, false, a->ptr.button); /* the tour lets go */
        if (k != 'q' && k != IK_ESC)
            return APP_NONE;
    }
    for (size_t i = 0; i < sizeof bindings / sizeof bindings[0]; i++)
        if (bindings[i].key == k)
            return bindings[i].act(a);
    if (app_scene(a)->key)
        app_scene(a)->key(a->st[a->cur], k);
    return APP_NONE;
}

int app_input(struct app *a, const struct input_event *ev)
{
    a->dirty = true;
    switch (ev->type) {
    case INPUT_KEY:
        if (ev->alt)
            return APP_NONE;
        return key(a, ev->key);
    case INPUT_MOUSE:
        if (a->demo && ev->action == MOUSE_PRESS)
            key(a, 0);
        mouse(a, ev);
        return APP_NONE;
    default:
        return APP_NONE;
    }
}

/* ---- stepping ------------------------------------------------------------ */

static void autopilot(struct app *a)
{
    if (!a->auto_on || a->now - a->ptr.last_real < REAL_POINTER_HOLD || a->kbd)
        return;
    float x, y;
    bool down;
    int button;
    app_scene(a)->autopilot(a->st[a->cur], a->now - a->shown_at, canvas_w(a), canvas_h(a), &x,
                            &y, &down, &button);
    pointer_set(a, x, y, down, button);
}

static void demo_tour(struct app *a)
{
    if (!a->demo)
        return;
    int want = (int)((a->now - a->demo_t0) / DEMO_SCENE_SECONDS) % SCENE_COUNT;
    if (want != a->cur) {
        app_switch(a, want);
        app_scene(a)->restart(a->st[a->cur]);
    }
}

double app_run_steps(struct app *a, double dt, int n, double (*clock)(void))
{
    a->now += dt;
    demo_tour(a);
    autopilot(a);
    if (app_too_small(a) || n <= 0)
        return 0.0;
    const struct scene_ops *s = app_scene(a);
    void *st = a->st[a->cur];
    bool want = a->ptr.down || a->ptr.pressed;
    struct pointer p = {0};
    float piece[2 * APP_PATH_MAX];
    const float *path = a->ptr.path;
    int np = a->ptr.npath;
    float total = 0.0f;
    for (int i = 0; i + 1 < np; i++)
        total += hypotf(path[2 * i + 2] - path[2 * i], path[2 * i + 3] - path[2 * i + 1]);
    p.button = a->ptr.button;
    p.dt = (float)(dt / n);
    if (dt > 0) {
        p.vx = (a->ptr.x - path[0]) / (float)dt;
        p.vy = (a->ptr.y - path[1]) / (float)dt;
    }
    p.path = piece;
    double t0 = clock();
    for (int k = 0; k < n; k++) {
        p.pressed = k == 0 && want && (!a->ptr.scene_down || a->ptr.pressed);
        p.released = k == 0 && !want && a->ptr.scene_down;
        p.down = want;
        /* Each step gets its share of the way the pointer went, by length. */
        p.npath = path_piece(path, np, total * (float)k / (float)n,
                             total * (float)(k + 1) / (float)n, piece);
        p.x0 = piece[0], p.y0 = piece[1];
        p.x1 = piece[2 * p.npath - 2], p.y1 = piece[2 * p.npath - 1];
        s->step(st, &p);
        a->ptr.scene_down = want;
    }
    double wall = clock() - t0;
    double ms = wall * 1000.0 / n;
    a->step_ms = a->step_ms > 0 ? 0.9 * a->step_ms + 0.1 * ms : ms;
    a->steps[a->cur] += n;
    path_reset(a);
    a->ptr.pressed = false;
    return wall;
}

void app_advance(struct app *a, double dt, double (*clock)(void))
{
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
    app_run_steps(a, dt, n, clock);
}

/* ---- drawing ------------------------------------------------------------- */

static rgb_t mode_colour(const struct app *a, rgb_t c)
{
    return a->o.color == COLOR_MONO ? COLOR_DEFAULT : c;
}

static void text(struct app *a, int col, int row, const char *s, rgb_t fg, rgb_t bg)
{
    cells_text(&a->cells, col, row, s, mode_colour(a, fg), mode_colour(a, bg));
}

static void hud(struct app *a)
{
    int row = a->rows - 1;
    char line[512], stats[256];
    const struct scene_ops *s = app_scene(a);
    cells_clear(&a->cells, row, row + 1, mode_colour(a, hud_bg));
    s->hud(a->st[a->cur], stats, sizeof stats);
    char timing[64] = "";
    if (!a->sim_clock)
        snprintf(timing, sizeof timing, "%2.0f fps  %.2f ms/step  ", a->fps, a->step_ms);
    snprintf(line, sizeof line, " %s %s%s%s", s->name, a->paused ? "[paused] " : "", timing,
             stats);
    int col = 0;
    char name[32];
    snprintf(name, sizeof name, " %s ", s->name);
    col = cells_text(&a->cells, col, row, name, mode_colour(a, hud_key), mode_colour(a, hud_bg));
    text(a, col, row, line + strlen(name) - 1, hud_fg, hud_bg);
    const char *hints = "? help  p params  1-3 scene  q quit ";
    int hl = (int)strlen(hints);
    int used = (int)strlen(line);
    if (a->cols - hl > used + 1)
        text(a, a->cols - hl, row, hints, hud_dim, hud_bg);
}

static void box(struct app *a, int col, int row, int w, int h)
{
    for (int r = row; r < row + h && r < a->rows - 1; r++)
        for (int c = col; c < col + w && c < a->cols; c++)
            if (r >= 0 && c >= 0)
                *cells_at(&a->cells, c, r) =
                    (struct cell){' ', COLOR_DEFAULT, mode_colour(a, box_bg)};
}

static void help_overlay(struct app *a)
{
    char lines[48][96];
    int n = 0;
    const struct scene_ops *s = app_scene(a);
    snprintf(lines[n++], 96, "swirl %s - %s", SWIRL_VERSION, s->title);
    lines[n++][0] = 0;
    for (size_t i = 0; i < sizeof bindings / sizeof bindings[0] && n < 40; i++)
        if (bindings[i].keys)
            snprintf(lines[n++], 96, "  %-11s %s", bindings[i].keys, bindings[i].help);
    if (s->keys)
        snprintf(lines[n++], 96, "  %-11s %s", s->name, s->keys);
    lines[n++][0] = 0;
    snprintf(lines[n++], 96, "  %-11s %s", "mouse", s->mouse);
    snprintf(lines[n++], 96, "  %-11s %s", "wheel", s->zoom ? "zoom" : "(no zoom here)");
    if (a->frames > 0) {
        lines[n++][0] = 0;
        snprintf(lines[n++], 96, "  %-11s %.1f KB a frame, %ld frames skipped (link behind)",
                 "output", (double)a->bytes / (double)a->frames / 1000.0, a->frames_skipped);
    }
    int w = 0;
    for (int i = 0; i < n; i++)
        w = (int)strlen(lines[i]) > w ? (int)strlen(lines[i]) : w;
    w += 4;
    int h = n + 2;
    int col = (a->cols - w) / 2, row = (a->rows - 1 - h) / 2;
    if (col < 0)
        col = 0;
    if (row < 0)
        row = 0;
    box(a, col, row, w, h);
    for (int i = 0; i < n; i++)
        text(a, col + 2, row + 1 + i, lines[i], i == 0 ? hud_key : hud_fg, box_bg);
}

static void panel_overlay(struct app *a)
{
    const struct scene_ops *s = app_scene(a);
    int w = 38, h = s->nparams + 3;
    box(a, 0, 0, w, h);
    text(a, 2, 0, "parameters (Up/Down, Left/Right)", hud_key, box_bg);
    for (int i = 0; i < s->nparams; i++) {
        char line[64];
        const struct param_def *d = &s->params[i];
        float v = *s->param(a->st[a->cur], i);
        if (d->flags & PARAM_BOOL)
            snprintf(line, sizeof line, "%-22s %s", d->name, v != 0.0f ? "on" : "off");
        else if ((d->flags & PARAM_ZERO) && v == 0.0f)
            snprintf(line, sizeof line, "%-22s off", d->name);
        else
            snprintf(line, sizeof line, "%-22s %.4g%s", d->name, (double)v,
                     d->flags & PARAM_RESTART ? " *" : "");
        bool sel = i == a->sel;
        if (sel && 1 + i < a->rows - 1)
            for (int c = 1; c < w - 1 && c < a->cols; c++)
                cells_at(&a->cells, c, 1 + i)->bg = mode_colour(a, box_sel);
        text(a, 1, 1 + i, sel ? ">" : " ", hud_key, sel ? box_sel : box_bg);
        text(a, 2, 1 + i, line, hud_fg, sel ? box_sel : box_bg);
    }
    text(a, 2, 1 + s->nparams, "* restarts the scene", hud_dim, box_bg);
}

static void centred_over(struct app *a, int row, const char *s, float alpha)
{
    int col = (a->cols - (int)strlen(s)) / 2;
    if (a->o.color == COLOR_MONO)
        cells_text(&a->cells, col, row, s, COLOR_DEFAULT, COLOR_DEFAULT);
    else
        cells_text_over(&a->cells, col, row, s, RGB(255, 255, 255), alpha);
}

static void hint(struct app *a)
{
    double age = a->now - a->shown_at;
    const char *h = app_scene(a)->hint;
    if (!h || a->demo || age > HINT_SECONDS + HINT_FADE)
        return;
    float alpha = age < HINT_SECONDS ? 1.0f : (float)(1.0 - (age - HINT_SECONDS) / HINT_FADE);
    centred_over(a, (a->rows - 1) / 2, h, alpha);
}

static void caption(struct app *a)
{
    if (!a->demo)
        return;
    const struct scene_ops *s = app_scene(a);
    char line[160];
    snprintf(line, sizeof line, " %d %s: %s ", a->cur + 1, s->name, s->title);
    centred_over(a, 0, line, 1.0f);
    snprintf(line, sizeof line, " %s  |  %s  |  any key takes over ", s->mouse,
             s->keys ? s->keys : "r restart");
    centred_over(a, 1, line, 0.85f);
}

static void kbd_pointer(struct app *a)
{
    if (!a->kbd)
        return;
    int c = clampi((int)a->ptr.x, 0, a->cols - 1);
    int r = clampi((int)(a->ptr.y / 2.0f), 0, a->rows - 2);
    *cells_at(&a->cells, c, r) = (struct cell){a->ptr.down ? '#' : '+',
                                               mode_colour(a, RGB(255, 255, 255)),
                                               mode_colour(a, RGB(200, 40, 40))};
}

static void too_small(struct app *a)
{
    cells_clear(&a->cells, 0, a->rows, COLOR_DEFAULT);
    const char *m1 = "too small";
    char m2[48];
    snprintf(m2, sizeof m2, "need %dx%d", APP_MIN_COLS, APP_MIN_ROWS);
    int r = a->rows / 2 - (a->rows > 1 ? 1 : 0);
    cells_text(&a->cells, (a->cols - (int)strlen(m1)) / 2, r, m1, COLOR_DEFAULT, COLOR_DEFAULT);
    if (r + 1 < a->rows)
        cells_text(&a->cells, (a->cols - (int)strlen(m2)) / 2, r + 1, m2, COLOR_DEFAULT,
                   COLOR_DEFAULT);
}

void app_compose(struct app *a)
{
    if (app_too_small(a)) {
        too_small(a);
        return;
    }
    app_scene(a)->draw(a->st[a->cur], &a->img);
    blit_image(&a->img, &a->cells, a->o.color, a->o.glyphs);
    hint(a);
    caption(a);
    kbd_pointer(a);
    if (a->panel)
        panel_overlay(a);
    if (a->help)
        help_overlay(a);
    hud(a);
}

size_t app_encode(struct app *a, struct buf *out)
{
    size_t before = out->len;
    a->enc.sweep = !a->paused; /* a paused picture stays as sent: not a byte more */
    encode_frame(&a->enc, &a->cells, out);
    return out->len - before;
}

void app_json(struct app *a, struct buf *out, double ms)
{
    buf_printf(out, "{\"scene\":\"%s\",\"step\":%ld,", app_scene(a)->name, a->steps[a->cur]);
    app_scene(a)->json(a->st[a->cur], out);
    buf_printf(out, ",\"ms\":%.4f}", ms);
}
