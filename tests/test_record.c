/*
 * test_record.c — recordings kept whatever happens: through the cast API (a
 * size limit, a file that appears at the path meanwhile, a write error over an
 * old file, messages with control characters in the path, the signal handler
 * in a child) and through ./swirl (every fatal signal to a headless run, a
 * terminal run in tmux ended by SIGQUIT and by q with a late file, a full tmpfs).
 */
#include "app.h"
#include "buf.h"
#include "cast.h"
#include "compose.h"
#include "e2e.h"
#include "frame.h"
#include "signals.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------- */

static void nap(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* A fresh empty folder (the test's own). */
static void fresh_dir(char *dir, size_t n, const char *tag)
{
    snprintf(dir, n, "/tmp/swirl-%s-%d", tag, (int)getpid());
    e2e_sh("rm -rf '%s' && mkdir -p '%s'", dir, dir);
}

/* A fresh folder for a test, and the names a recording takes in it: its path
 * (a.cast) and the first name beside it (a.cast.1). */
struct at {
    char dir[64], path[96], one[100];
};

static struct at fresh_at(const char *tag)
{
    struct at d;
    fresh_dir(d.dir, sizeof d.dir, tag);
    snprintf(d.path, sizeof d.path, "%s/a.cast", d.dir);
    snprintf(d.one, sizeof d.one, "%s.1", d.path);
    return d;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The file's text equals `want` (a missing file equals nothing). */
static bool file_is(const char *path, const char *want)
{
    size_t n;
    char *got = e2e_slurp(path, &n);
    bool same = got && strcmp(got, want) == 0;
    free(got);
    return same;
}

static bool file_is_cast(const char *path)
{
    size_t n;
    char *got = e2e_slurp(path, &n);
    bool ok = e2e_valid_cast(got);
    free(got);
    return ok;
}

/* Entries of dir whose names start with '.' (other than . and ..): temporaries. */
static int hidden_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* The size of the temporary a recording in dir is written to (-1: none yet). */
static long temp_size(const char *dir)
{
    DIR *d = opendir(dir);
    long size = -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] != '.' || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[512];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) == 0)
            size = (long)st.st_size;
    }
    if (d)
        closedir(d);
    return size;
}

static bool no_raw_controls(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            return false;
    return true;
}

static struct cast_setup setup(bool overwrite, long long limit)
{
    return (struct cast_setup){.w = 40, .h = 10, .overwrite = overwrite, .limit = limit};
}

/* A recording with a few events in it. */
static void some_events(struct cast *c, int n)
{
    for (int i = 0; i < n; i++)
        cast_output(c, 0.1 * i, "\x1b[1;1Hhello", 11);
}

/* ---- through the API ----------------------------------------------------- */

TEST(record_size_text_and_sizes)
{
    static const struct {
        long long bytes;
        const char *text;
    } texts[] = {{0, "0K"},        {30000, "29K"},          {3355443, "3.2M"},
                 {256LL << 20, "256M"}, {3LL << 29, "1.5G"}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char t[32];
        cast_size_text(texts[i].bytes, t, sizeof t);
        CHECK_MSG(strcmp(t, texts[i].text) == 0, "%lld: %s, not %s", texts[i].bytes, t,
                  texts[i].text);
    }
    static const struct {
        const char *s;
        long long bytes;
    } sizes[] = {{"256M", 256LL << 20}, {"1.5G", 3LL << 29}, {"0", 0}, {"100", 100},
                 {"64k", 65536},        {"2MB", 2LL << 20},  {"2MiB", 2LL << 20}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        long long b = -1;
        CHECK_MSG(cast_parse_size(sizes[i].s, &b) == 0 && b == sizes[i].bytes, "%s: %lld",
                  sizes[i].s, b);
    }
    static const char *const bad[] = {"", "-1", "1X", "nan", "inf", " 5", "5 ", "M", "1e30G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long long b;
        CHECK_MSG(cast_parse_size(bad[i], &b) == -1, "'%s' taken", bad[i]);
    }
}

static bool hud_has(const struct app *a, struct frame *f, const char *text)
{
    char line[512];
    int n = 0, row = a->rows - 1;
    for (int c = 0; c < f->cells.cols && n < 511; c++) {
        uint32_t ch = cells_at(&f->cells, c, row)->ch;
        line[n++] = ch < 128 ? (char)ch : '#';
    }
    line[n] = 0;
    return strstr(line, text) != NULL;
}

static double sim_t;
static double sim_clock(void) { return sim_t; }

/* A recording of a small limit, fed frame by frame as the terminal loop feeds
 * it: the HUD says it runs and how big it is, then that it stopped at its
 * limit; the app goes on; the file is valid asciicast within the limit and
 * ends with the terminal put back. */
TEST(record_limit_stops_the_recording_not_the_app)
{
    struct at d = fresh_at("limit");
    struct app_opts o;
    app_opts_default(&o);
    CHECK(o.record_limit == APP_RECORD_LIMIT && APP_RECORD_LIMIT == 256LL << 20);
    o.sync = false;
    o.autopilot = true;
    struct app a;
    struct frame fr;
    CHECK_INT(app_init(&a, &o, 60, 20), 0);
    frame_init(&fr, &a, true);
    const long long limit = 100000;
    struct cast c;
    struct cast_setup cs = setup(false, limit);
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    struct buf out;
    buf_init(&out);
    int stopped_at = -1;
    long steps_at_stop = 0;
    bool said_size = false;
    for (int f = 0; f < 200 && (stopped_at < 0 || f < stopped_at + 20); f++) {
        sim_t = f / 30.0;
        buf_clear(&out);
        frame_next(&fr, &a, f ? 1.0 / 30 : 0.0, sim_clock, true, &out);
        if (cast_running(&c) && f > 1)
            said_size |= hud_has(&a, &fr, "rec ") && hud_has(&a, &fr, "K ");
        cast_output(&c, sim_t, out.p, out.len);
        cast_status(&c, &a.rec);
        if (!cast_running(&c) && stopped_at < 0)
            stopped_at = f, steps_at_stop = a.steps[a.cur];
    }
    CHECK_MSG(stopped_at > 2, "stopped at frame %d", stopped_at);
    CHECK_MSG(said_size, "the HUD never showed the recording's size");
    CHECK_MSG(hud_has(&a, &fr, "rec stopped: 97K limit"), "HUD without the stop");
    CHECK(a.steps[a.cur] > steps_at_stop); /* the app ran on after the recording stopped */
    struct buf msg;
    buf_init(&msg);
    CHECK_INT(cast_close(&c, &msg), 0);
    CHECK_MSG(msg.len && strstr(msg.p, "size limit, 97K") && strstr(msg.p, d.path), "%.*s",
              (int)msg.len, msg.p);
    size_t n;
    char *text = e2e_slurp(d.path, &n);
    CHECK_MSG(text && (long long)n <= limit && (long long)n > limit - 60000, "%zu bytes", n);
    CHECK(e2e_valid_cast(text));
    size_t tl = text ? strlen(text) : 0;
    CHECK(tl > 60 && strstr(text + tl - 60, "\\u001b[0m\\u001b[?25h\\u001b[999;1H\\u000d\\u000a\"]\n"));
    free(text);
    /* A limit the header alone does not fit in: refused at the start. */
    cs.limit = 50;
    CHECK(cast_open(&c, d.path, &cs) == -1 && errno == EFBIG);
    CHECK_INT(hidden_in(d.dir), 0);
    buf_free(&msg);
    buf_free(&out);
    frame_free(&fr);
    app_free(&a);
    e2e_sh("rm -rf '%s'", d.dir);
}

TEST(record_hud_says_what_the_recording_does)
{
    struct app_opts o;
    app_opts_default(&o);
    struct app a;
    struct frame fr;
    CHECK_INT(app_init(&a, &o, 100, 20), 0);
    frame_init(&fr, &a, true);
    static const struct {
        struct cast_status st;
        const char *says;
    } cases[] = {
        {{true, CAST_RUNNING, 3355443, 0, 0}, "rec 3.2M "},
        {{true, CAST_LIMIT, 256LL << 20, 256LL << 20, 0}, "rec stopped: 256M limit"},
        {{true, CAST_FAILED, 1000, 0, ENOSPC}, "rec stopped: disk full"},
        {{true, CAST_FAILED, 1000, 0, EIO}, "rec stopped: write error"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        a.rec = cases[i].st;
        compose_frame(&a, &fr.st, &fr.img, &fr.cells);
        CHECK_MSG(hud_has(&a, &fr, cases[i].says), "no '%s'", cases[i].says);
    }
    memset(&a.rec, 0, sizeof a.rec);
    compose_frame(&a, &fr.st, &fr.img, &fr.cells);
    CHECK(!hud_has(&a, &fr, "rec"));
    frame_free(&fr);
    app_free(&a);
}

/* A file created at the path while recording is never clobbered without
 * overwrite: the recording goes beside it, and the message says where; the
 * recording is whole all the same (cast_close says so: the exit status is
 * not a failure's). */
TEST(record_a_file_that_appears_meanwhile_is_kept)
{
    struct at d = fresh_at("late");
    char two[100];
    snprintf(two, sizeof two, "%s.2", d.path);
    struct cast c;
    struct cast_setup cs = setup(false, 0);
    struct buf msg;
    buf_init(&msg);
    for (int k = 0; k < 2; k++) { /* a.cast.1 goes to the first, a.cast.2 to the second */
        CHECK_INT(cast_open(&c, d.path, &cs), 0);
        some_events(&c, 3);
        remove(d.path);
        put_file(d.path, "late");
        buf_clear(&msg);
        CHECK_INT(cast_close(&c, &msg), 0); /* whole, beside: done (the message says where) */
        CHECK(file_is(d.path, "late"));
        CHECK(file_is_cast(k ? two : d.one));
        buf_putc(&msg, 0);
        CHECK_MSG(strstr(msg.p, "appeared meanwhile") && strstr(msg.p, k ? two : d.one), "%s",
                  msg.p);
    }
    CHECK_INT(hidden_in(d.dir), 0);
    /* The file that was there at the start (cast_check let it through: the
     * user said --overwrite) is replaced; one that replaced it meanwhile is not. */
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    some_events(&c, 2);
    CHECK_INT(cast_close(&c, NULL), 0);
    CHECK(file_is_cast(d.path));
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    remove(d.path);
    put_file(d.path, "newer");
    buf_clear(&msg);
    CHECK_INT(cast_close(&c, &msg), 0);
    CHECK(file_is(d.path, "newer"));
    /* With overwrite, whatever is there goes. */
    remove(d.path);
    cs.overwrite = true;
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    some_events(&c, 2);
    put_file(d.path, "late");
    CHECK_INT(cast_close(&c, NULL), 0);
    CHECK(file_is_cast(d.path));
    CHECK_INT(hidden_in(d.dir), 0);
    buf_free(&msg);
    e2e_sh("rm -rf '%s'", d.dir);
}

/* The file descriptor of a recording swapped for /dev/full: the next write
 * fails as on a full disk. */
static void fill_the_disk(struct cast *c)
{
    int full = open("/dev/full", O_WRONLY);
    CHECK(full >= 0);
    CHECK(dup2(full, c->fd) == c->fd);
    close(full);
}

/* A write error with --overwrite: the old file stays, the part recorded is
 * kept beside it (valid), and the message says where. Without an old file
 * the part goes to the path itself. */
TEST(record_a_write_error_never_costs_the_old_file)
{
    struct at d = fresh_at("werr");
    put_file(d.path, "old");
    struct cast c;
    struct cast_setup cs = setup(true, 0);
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    some_events(&c, 3);
    fill_the_disk(&c);
    some_events(&c, 3);
    CHECK(!cast_running(&c) && c.stop == CAST_FAILED && c.err == ENOSPC);
    struct buf msg;
    buf_init(&msg);
    CHECK_INT(cast_close(&c, &msg), -1);
    buf_putc(&msg, 0);
    CHECK(file_is(d.path, "old"));
    CHECK(file_is_cast(d.one));
    CHECK_MSG(strstr(msg.p, "No space left") && strstr(msg.p, "is left as it was") &&
                  strstr(msg.p, d.one), "%s", msg.p);
    remove(d.path);
    remove(d.one);
    CHECK_INT(cast_open(&c, d.path, &cs), 0);
    some_events(&c, 3);
    fill_the_disk(&c);
    some_events(&c, 1);
    buf_clear(&msg);
    CHECK_INT(cast_close(&c, &msg), -1);
    buf_putc(&msg, 0);
    CHECK(file_is_cast(d.path));
    CHECK_MSG(strstr(msg.p, "recording stopped at") && strstr(msg.p, "keeps what was written"),
              "%s", msg.p);
    CHECK_INT(hidden_in(d.dir), 0);
    buf_free(&msg);
    e2e_sh("rm -rf '%s'", d.dir);
}

/* The path shown in "the recording stopped" and "writing ... failed" with its
 * control characters escaped, never sent to the terminal raw. */
TEST(record_messages_escape_the_path)
{
    char dir[96], path[160], moved[112];
    snprintf(dir, sizeof dir, "/tmp/swirl-esc-%d-\x1b]0;pwned\x07", (int)getpid());
    snprintf(moved, sizeof moved, "/tmp/swirl-esc-%d-moved", (int)getpid());
    snprintf(path, sizeof path, "%s/a\x1b[2J\xc2\x9b.cast", dir);
    e2e_sh("rm -rf /tmp/swirl-esc-%d-*", (int)getpid());
    CHECK(mkdir(dir, 0755) == 0);
    struct cast c;
    struct cast_setup cs = setup(false, 0);
    struct buf msg;
    buf_init(&msg);
    CHECK_INT(cast_open(&c, path, &cs), 0);
    some_events(&c, 2);
    fill_the_disk(&c);
    some_events(&c, 1);
    CHECK_INT(cast_close(&c, &msg), -1);
    buf_putc(&msg, 0);
    CHECK_MSG(strstr(msg.p, "the recording stopped") && no_raw_controls(msg.p) &&
                  strstr(msg.p, "-\\x1b]0;pwned\\x07/a\\x1b[2J\\xc2\\x9b.cast"), "%s", msg.p);
    /* The folder moved away under it: putting it in place fails. */
    CHECK_INT(cast_open(&c, path, &cs), 0);
    some_events(&c, 2);
    CHECK(rename(dir, moved) == 0);
    buf_clear(&msg);
    CHECK_INT(cast_close(&c, &msg), -1);
    buf_putc(&msg, 0);
    CHECK_MSG(strstr(msg.p, "writing ") && strstr(msg.p, "failed") && no_raw_controls(msg.p) &&
                  strstr(msg.p, "\\x1b]0;pwned\\x07"), "%s", msg.p);
    buf_free(&msg);
    e2e_sh("rm -rf /tmp/swirl-esc-%d-*", (int)getpid());
}

TEST(record_escaping_shows_what_a_terminal_would_obey)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain \xc3\xa9\xe2\x96\x80", "plain \xc3\xa9\xe2\x96\x80"}, /* UTF-8 stays */
        {"\x1b]0;x\x07", "\\x1b]0;x\\x07"},
        {"\x7f\t\n", "\\x7f\\x09\\x0a"},
        {"\xc2\x9b" "2J", "\\xc2\\x9b2J"},                        /* C1 CSI */
        {"\xff\xe0\x80\x80\xed\xa0\x80", "\\xff\\xe0\\x80\\x80\\xed\\xa0\\x80"}, /* not UTF-8 */
        {"\xe2\x96", "\\xe2\\x96"},                               /* cut short */
        /* Past U+10FFFF (a lead byte F5-FF, F4 then 90 up), overlong forms
         * (C0, C1, E0 then below A0, F0 then below 90): not UTF-8, and the
         * bytes after them are judged on their own (9b is C1 CSI). */
        {"\xff\x9b\x80", "\\xff\\x9b\\x80"},
        {"\xf7\xbf\xbf\xbf\xf5\x80\x80\x80", "\\xf7\\xbf\\xbf\\xbf\\xf5\\x80\\x80\\x80"},
        {"\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
        {"\xc0\xaf\xc1\xbf\xe0\x9f\xbf", "\\xc0\\xaf\\xc1\\xbf\\xe0\\x9f\\xbf"},
        {"\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf"},
        {"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf", /* U+10000, U+10FFFF, U+D7FF */
         "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xed\x9f\xbf"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct buf b;
        buf_init(&b);
        buf_put_escaped(&b, cases[i].in, strlen(cases[i].in));
        buf_putc(&b, 0);
        CHECK_MSG(strcmp(b.p, cases[i].out) == 0, "%zu: %s", i, b.p);
        buf_free(&b);
    }
}

/* The exit status says how the run ended: 128 + the signal that stopped it,
 * whatever became of the recording (its messages say that), else the run's. */
TEST(record_the_exit_status_says_how_the_run_ended)
{
    signals_quit = 0;
    CHECK_INT(signals_exit_status(0), 0);
    CHECK_INT(signals_exit_status(1), 1);
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int k = 0; k < 3; k++) {
        signals_quit = sigs[k];
        CHECK_INT(signals_exit_status(0), 128 + sigs[k]);
        CHECK_INT(signals_exit_status(1), 128 + sigs[k]);
    }
    signals_quit = 0;
}

/* In a child: a recording, a file at its path meanwhile, then a fatal signal;
 * the handler puts the recording beside the file and says so on stderr. */
TEST(record_signal_handler_puts_the_recording_in_place)
{
    struct at d = fresh_at("sigh");
    char err[100];
    snprintf(err, sizeof err, "%s/err", d.dir);
    static const int sigs[] = {SIGUSR1, SIGQUIT, SIGPIPE};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            struct rlimit no = {0, 0};
            setrlimit(RLIMIT_CORE, &no);
            int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fd, STDERR_FILENO);
            signal(SIGPIPE, SIG_DFL); /* the test runner ignores it */
            signals_install(NULL);
            struct cast c;
            struct cast_setup cs = setup(false, 0);
            if (cast_open(&c, d.path, &cs) != 0)
                _exit(3);
            some_events(&c, 5);
            if (k == 0)
                put_file(d.path, "late");
            raise(sigs[k]);
            _exit(4); /* not reached */
        }
        int st;
        CHECK(waitpid(pid, &st, 0) == pid);
        CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == sigs[k], "signal %d: status %d", sigs[k],
                  st);
        size_t n;
        char *said = e2e_slurp(err, &n);
        if (k == 0) {
            CHECK(file_is(d.path, "late") && file_is_cast(d.one));
            CHECK_MSG(said && strstr(said, "is left as it was; the recording is") &&
                          strstr(said, d.one), "stderr: %s", said ? said : "");
        } else {
            CHECK_MSG(file_is_cast(d.path), "signal %d: no recording", sigs[k]);
            CHECK_MSG(said && n == 0, "stderr: %s", said ? said : "");
        }
        free(said);
        CHECK_INT(hidden_in(d.dir), 0);
        remove(d.path);
    }
    e2e_sh("rm -rf '%s'", d.dir);
}

/* ---- through ./swirl ----------------------------------------------------- */

/* ./swirl with these arguments, stdout and stderr into files in dir, no core. */
static pid_t start_swirl(const char *dir, const char *const *args)
{
    char out[128], err[128];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no = {0, 0};
        setrlimit(RLIMIT_CORE, &no);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0), dup2(o, 1), dup2(e, 2);
        /* Every signal at its default, as a shell leaves them: the test runner
         * ignores SIGPIPE, and whatever started it may ignore others (perf
         * record ignores SIGUSR2), which swirl would rightly leave ignored. */
        for (int sig = 1; sig < NSIG; sig++)
            if (sig != SIGKILL && sig != SIGSTOP)
                signal(sig, SIG_DFL);
        char *argv[16];
        int n = 0;
        argv[n++] = (char *)"./swirl";
        for (; args[n - 1] && n < 15; n++)
            argv[n] = (char *)args[n - 1];
        argv[n] = NULL;
        execv("./swirl", argv);
        _exit(127);
    }
    return pid;
}

static int wait_status(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Every signal that ends the process, sent to a headless recording under
 * way: the recording is at its path, valid; SIGINT, SIGTERM and SIGHUP end it
 * with 128 + the signal, the rest are raised again (the status says which). */
TEST_E2E(record_headless_survives_every_fatal_signal)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                               SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGSEGV,
                               SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
#ifdef SIGPWR
                               SIGPWR,
#endif
    };
    struct at d = fresh_at("hsig");
    const char *args[] = {"--headless", "--scene", "dye", "--auto", "--size", "40x10",
                          "--seconds", "86400", "--record", d.path, NULL};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        pid_t pid = start_swirl(d.dir, args);
        double end = buf_now() + E2E_DEADLINE;
        while (temp_size(d.dir) < 2000 && buf_now() < end)
            nap();
        CHECK_MSG(temp_size(d.dir) >= 2000, "signal %d: no recording under way", sigs[k]);
        kill(pid, sigs[k]);
        int st = wait_status(pid);
        CHECK_MSG(st == 128 + sigs[k], "signal %d: status %d", sigs[k], st);
        CHECK_MSG(file_is_cast(d.path), "signal %d: no whole recording at the d.path", sigs[k]);
        CHECK_MSG(hidden_in(d.dir) == 0, "signal %d: a temporary is left", sigs[k]);
        remove(d.path);
    }
    e2e_sh("rm -rf '%s'", d.dir);
}

static char pane_pid[32];
static const char *swirl_state(void)
{
    return e2e_sh("pgrep -P %s -x swirl >/dev/null", pane_pid) == 0 ? "running" : "gone";
}

/* swirl recording in a tmux pane, started without core dumps; pane_pid set. */
static bool start_recording_in_tmux(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "ulimit -c 0; env TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
             "COLORTERM=truecolor ./swirl --record %s; echo SWIRL-EXIT=\\$?; sleep 60", path);
    if (!e2e_start(200, 30, cmd))
        return false;
    snprintf(pane_pid, sizeof pane_pid, "%s", e2e_tmux("display -p -t e '#{pane_pid}'"));
    pane_pid[strcspn(pane_pid, "\n")] = 0;
    return true;
}

/* In a terminal: the HUD shows the recording; a file put at its path
 * meanwhile survives SIGQUIT, q, SIGTERM, SIGHUP and SIGINT alike, the
 * recording goes beside it and the message says where, while the exit status
 * says how swirl ended (0 for q, 128 + the signal); SIGUSR1 leaves a whole
 * recording at a free path. The terminal is given back each time. */
TEST_E2E(record_in_a_terminal_survives_signals_and_late_files)
{
    struct at d = fresh_at("tsig");
    char line[256];
    static const char *const how[] = {"QUIT", "q", "TERM", "HUP", "INT", "USR1"};
    static const char *const status[] = {"SWIRL-EXIT=131", "SWIRL-EXIT=0", "SWIRL-EXIT=143",
                                         "SWIRL-EXIT=129", "SWIRL-EXIT=130", "SWIRL-EXIT=138"};
    const int late = 5;
    for (int k = 0; k < 6; k++) {
        CHECK(start_recording_in_tmux(d.path));
        CHECK_MSG(e2e_wait_for(e2e_plain, " rec "), "no rec on the HUD:\n%s", e2e_plain());
        e2e_line_of(e2e_plain(), 29, line, sizeof line);
        const char *rec = strstr(line, " rec ");
        CHECK_MSG(rec && (strchr("0123456789", rec[5])), "HUD: %s", line);
        if (k < late)
            put_file(d.path, "late");
        if (k == 1)
            e2e_send_key("q");
        else
            e2e_sh("kill -%s $(pgrep -P %s -x swirl)", how[k], pane_pid);
        CHECK(e2e_wait_for(swirl_state, "gone"));
        CHECK_MSG(e2e_wait_for(e2e_plain, status[k]), "%s: %s", how[k], e2e_plain());
        CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "%s: modes %s", how[k], e2e_modes());
        if (k < late) {
            CHECK_MSG(file_is(d.path, "late"), "%s: the late file is gone", how[k]);
            CHECK_MSG(file_is_cast(d.one), "%s: no recording beside it", how[k]);
            CHECK_MSG(strstr(e2e_plain(), "the recording is /tmp/") &&
                          strstr(e2e_plain(), "a.cast.1"), "%s: %s", how[k], e2e_plain());
        } else {
            CHECK_MSG(file_is_cast(d.path), "%s: no recording", how[k]);
        }
        e2e_stop();
        CHECK_INT(hidden_in(d.dir), 0);
        remove(d.path);
        remove(d.one);
    }
    e2e_sh("rm -rf '%s'", d.dir);
}

/* A full disk (a 64 KB tmpfs) with --overwrite over an old file whose name
 * holds control characters: the old file stays, the recorded part is kept
 * beside it, valid, and stderr says where, escaped. Then a recording that fits
 * replaces it. */
TEST_E2E(record_full_disk_with_overwrite_keeps_the_old_file)
{
    char dir[64], path[128], one[136], logs[64], errs[80];
    fresh_dir(logs, sizeof logs, "tlog");
    snprintf(errs, sizeof errs, "%s/err", logs);
    snprintf(dir, sizeof dir, "/tmp/swirl-tmpfs-%d", (int)getpid());
    if (e2e_sh("mkdir -p %s && mount -t tmpfs -o size=64k tmpfs %s 2>/dev/null", dir, dir)) {
        e2e_sh("rmdir %s; rm -rf %s", dir, logs);
        test_skip("cannot mount tmpfs");
    }
    snprintf(path, sizeof path, "%s/o\x1b]0;pwned\x07.cast", dir);
    snprintf(one, sizeof one, "%s.1", path);
    put_file(path, "old");
    const char *args[] = {"--headless", "--scene", "dye", "--auto", "--seconds", "20",
                          "--record", path, "--overwrite", NULL};
    int st = wait_status(start_swirl(logs, args));
    size_t n;
    char *err = e2e_slurp(errs, &n);
    CHECK_MSG(st == 1, "status %d", st);
    CHECK(file_is(path, "old"));
    char *cast = e2e_slurp(one, &n);
    CHECK_MSG(cast && n > 1000 && e2e_valid_cast(cast), "beside: %zu bytes", cast ? n : 0);
    free(cast);
    CHECK_MSG(err && strstr(err, "recording stopped at") && strstr(err, "No space left") &&
                  strstr(err, "o\\x1b]0;pwned\\x07.cast.1 keeps what was written") &&
                  no_raw_controls(err), "stderr: %s", err ? err : "");
    free(err);
    /* What fits replaces it. */
    remove(one);
    const char *small[] = {"--headless", "--size", "20x6", "--seconds", "0.2", "--record",
                           path, "--overwrite", NULL};
    st = wait_status(start_swirl(logs, small));
    CHECK_INT(st, 0);
    CHECK(file_is_cast(path));
    CHECK_INT(hidden_in(dir), 0);
    e2e_sh("umount %s; rmdir %s; rm -rf %s", dir, dir, logs);
}
