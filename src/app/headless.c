/*
 * headless.c — the same app without a terminal: statistics as JSON lines, and
 * recordings rendered on a simulated clock (see headless.h).
 */
#include "cast.h"
#include "frame.h"
#include "headless.h"
#include "signals.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A recording's steps are timed on a clock that stands still: on the
 * simulated clock they take no time, so nothing of a frame (the HUD's step
 * time, steps cut short by a budget) depends on the machine. */
static double still_clock(void) { return 0.0; }

/* Whether stdout took everything written to it so far (wrote: the last
 * write took all it was given): if not, one line on stderr saying why (a full
 * disk, a closed stdout). */
static bool stdout_ok(bool wrote)
{
    if (wrote && !ferror(stdout) && fflush(stdout) == 0)
        return true;
    int e = errno ? errno : EIO;
    clearerr(stdout);
    buf_warn("cannot write to stdout: %s", strerror(e));
    return false;
}

/* Statistics are line-buffered, so a reader at the other end of a pipe gets
 * each line when it is printed; the first line stdout does not take ends the
 * run (exit status 1). */
int headless_stats(const struct app_opts *o, int cols, int rows, long steps, long every)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* before the first output */
    struct app a;
    if (app_init(&a, o, cols, rows) != 0) {
        fprintf(stderr, "swirl: cannot start the scene\n");
        return 1;
    }
    struct buf line;
    buf_init(&line);
    const struct scene_ops *s = app_scene(&a);
    double block = 0.0, total = 0.0;
    long in_block = 0;
    bool ok = true;
    for (long k = 1; k <= steps && ok; k++) {
        /* A step stands for its share of a reference frame of the scene shown
         * now (--demo changes scenes, and each has its own steps a frame). */
        int spf = app_scene(&a)->steps_per_frame(a.st[a.cur]);
        double step_dt = 1.0 / ((double)APP_REF_FPS * spf);
        double wall = app_run_steps(&a, step_dt, 1, frame_now);
        block += wall, total += wall, in_block++;
        if (k % every == 0 || k == steps) {
            buf_clear(&line);
            app_json(&a, &line, block * 1000.0 / (double)in_block);
            buf_putc(&line, '\n');
            errno = 0;
            ok = stdout_ok(fwrite(line.p, 1, line.len, stdout) == line.len);
            block = 0.0, in_block = 0;
        }
    }
    if (ok) {
        errno = 0;
        ok = stdout_ok(printf("{\"summary\":true,\"scene\":\"%s\",\"steps\":%ld,"
                              "\"ms_per_step\":%.4f}\n", s->name, steps,
                              steps ? total * 1000.0 / (double)steps : 0.0) > 0);
    }
    buf_free(&line);
    app_free(&a);
    return ok ? 0 : 1;
}

/* A recording advances the app exactly 1/fps seconds per frame and reads no
 * wall clock for anything it draws, so the same options give the same bytes on
 * any machine. SIGINT, SIGTERM and SIGHUP end a recording early, kept as usual;
 * any other signal that ends the process puts the recording in place first
 * (signals.h). */
int headless_record(const struct app_opts *o, int cols, int rows, double seconds,
                    const char *path, struct record_stats *st)
{
    struct cast cast;
    memset(st, 0, sizeof *st);
    struct cast_setup cs = {cols, rows, "xterm-256color", 0, "swirl", o->overwrite,
                            o->record_limit};
    signals_install(NULL);
    if (cast_open(&cast, path, &cs) != 0) {
        buf_warn("cannot write %s: %s", path, strerror(errno));
        return 2;
    }
    struct app a;
    if (app_init(&a, o, cols, rows) != 0) {
        cast_close(&cast, NULL);
        fprintf(stderr, "swirl: cannot start the scene\n");
        return 1;
    }
    struct frame fr;
    frame_init(&fr, &a, true);
    struct buf out, naive;
    buf_init(&out);
    buf_init(&naive);
    long frames = (long)(seconds * o->fps + 0.5);
    double dt = 1.0 / o->fps, wall0 = frame_now();
    cast_output(&cast, 0.0, "\x1b[?25l", 6);
    long f = 0;
    for (; f < frames && cast_running(&cast) && !signals_quit; f++) {
        double t = (double)f * dt;
        buf_clear(&out);
        frame_next(&fr, &a, f > 0 ? dt : 0.0, still_clock, true, &out);
        cast_output(&cast, t, out.p, out.len);
        buf_clear(&naive);
        encode_naive(&fr.cells, o->color, &naive);
        st->naive_bytes += naive.len;
    }
    frames = f; /* fewer when the recording stopped or a signal ended it */
    cast_finish(&cast, (double)frames * dt);
    struct buf msg;
    buf_init(&msg);
    int rc = cast_close(&cast, &msg);
    fwrite(msg.p ? msg.p : "", 1, msg.len, stderr);
    buf_free(&msg);
    st->frames = frames;
    st->bytes = fr.st.bytes;
    st->seconds = (double)frames * dt;
    st->wall = frame_now() - wall0;
    st->scene = app_scene(&a)->name;
    buf_free(&out);
    buf_free(&naive);
    frame_free(&fr);
    app_free(&a);
    return signals_exit_status(rc != 0 ? 1 : 0);
}

/* The summary counts the bytes of every frame and what a naive full redraw of
 * the same cells would have cost (encode_naive). */
int headless_record_summary(const struct record_stats *st)
{
    double f = st->frames > 0 ? (double)st->frames : 1.0;
    errno = 0;
    int n = printf("{\"summary\":true,\"scene\":\"%s\",\"frames\":%ld,\"seconds\":%.3f,\"bytes\":%zu,"
           "\"bytes_per_frame\":%.1f,\"naive_bytes_per_frame\":%.1f,\"ratio_to_naive\":%.4f,"
           "\"ms_per_frame\":%.3f}\n",
           st->scene, st->frames, st->seconds, st->bytes, (double)st->bytes / f,
           (double)st->naive_bytes / f,
           st->naive_bytes ? (double)st->bytes / (double)st->naive_bytes : 0.0,
           st->wall * 1000.0 / f);
    return stdout_ok(n > 0) ? 0 : 1;
}
