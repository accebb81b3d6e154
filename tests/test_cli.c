/*
 * test_cli.c — the command line as a user types it: ./swirl run through the
 * shell, its stdout, stderr and exit status read back. --set, its help and its
 * errors; options that would be ignored; what an error echoes; a scene that
 * cannot be created for want of memory. How each argument is parsed, range by
 * range, is test_cli_parse.c's (in-process, no ./swirl).
 */
#include "e2e.h"
#include "scene.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct run {
    int status;          /* exit status, or 128 + signal */
    char *out, *err;     /* what it printed (malloc'd) */
    int err_lines;
};

/* Runs `./swirl ARGS` (ARGS as the shell reads them) with no terminal. */
static struct run swirl(const char *args)
{
    char out[64], err[64], cmd[1024];
    snprintf(out, sizeof out, "/tmp/swirl-cli-%d.out", (int)getpid());
    snprintf(err, sizeof err, "/tmp/swirl-cli-%d.err", (int)getpid());
    snprintf(cmd, sizeof cmd, "./swirl %s </dev/null >%s 2>%s", args, out, err);
    struct run r = {0};
    int st = system(cmd);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    size_t n;
    r.out = e2e_slurp(out, &n);
    r.err = e2e_slurp(err, &n);
    for (const char *p = r.err ? r.err : ""; *p; p++)
        r.err_lines += *p == '\n';
    remove(out);
    remove(err);
    if (!r.out)
        r.out = calloc(1, 1);
    if (!r.err)
        r.err = calloc(1, 1);
    return r;
}

static void run_free(struct run *r)
{
    free(r->out);
    free(r->err);
}

/* Refused: exit 2, one line on stderr containing `says`. */
static void check_refused(const char *args, const char *says)
{
    struct run r = swirl(args);
    CHECK_MSG(r.status == 2 && r.err_lines == 1 && strstr(r.err, says),
              "swirl %s: status %d, stderr: %s", args, r.status, r.err);
    run_free(&r);
}

static long json_long(const char *s, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(s, k);
    return p ? strtol(p + strlen(k), NULL, 10) : -1;
}

TEST_E2E(cli_set_sizes_the_first_scene_before_its_first_step)
{
    struct run r = swirl("--headless --scene pbf --set block-width=10 --set block-height=5 "
                         "--steps 1");
    CHECK_INT(r.status, 0);
    CHECK_INT(json_long(r.out, "particles"), 50);
    run_free(&r);
    /* The seed's own setup at any block size: the preset first, --set on top. */
    r = swirl("--headless --scene pbf --preset seed --set block-width=100 "
              "--set block-height=100 --steps 1");
    CHECK_INT(r.status, 0);
    CHECK_INT(json_long(r.out, "particles"), 10000);
    run_free(&r);
    r = swirl("--headless --scene cloth --set width=20 --set height=10 --set fixed-particles=4 "
              "--steps 1");
    CHECK_INT(json_long(r.out, "particles"), 200);
    run_free(&r);
    /* A non-restarting parameter changes the run. */
    struct run a = swirl("--headless --scene pbf --steps 20 --every 20");
    struct run b = swirl("--headless --scene pbf --set gravity=-30 --steps 20 --every 20");
    char *ka = strstr(a.out, "\"ke\""), *kb = strstr(b.out, "\"ke\"");
    CHECK(ka && kb && strncmp(ka, kb, 20) != 0);
    run_free(&a);
    run_free(&b);
}

TEST_E2E(cli_set_help_lists_every_parameter_with_its_default)
{
    static const struct {
        const char *scene;
        const char *line;
    } want[] = {
        {"dye", "dye-decay              0.5 /s       0 to 5"},
        {"pbf", "max-iterations         100          1 to 500, whole"},
        {"cloth", "fixed-particles        2            1, 2 or 4  *"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char args[64];
        snprintf(args, sizeof args, "--scene %s --set help", want[i].scene);
        struct run r = swirl(args);
        int lines = 0;
        for (const char *p = r.out; *p; p++)
            lines += *p == '\n';
        CHECK_INT(r.status, 0);
        const struct scene_ops *s = scenes[scene_find(want[i].scene)];
        /* pbf's and cloth's last line says which are sized to the terminal. */
        int note = strstr(r.out, "\nterminal: sized to the terminal swirl runs in (") != NULL;
        CHECK_INT(note, i > 0);
        CHECK_MSG(lines == s->nparams + 1 + note, "%s: %d lines:\n%s", want[i].scene, lines,
                  r.out);
        for (int k = 0; k < s->nparams; k++) { /* every parameter, by its command-line name */
            char name[64], at[72];
            param_name(&s->params[k], name, sizeof name);
            snprintf(at, sizeof at, "\n  %s ", name);
            CHECK_MSG(strstr(r.out, at) != NULL, "%s: no %s", want[i].scene, name);
        }
        CHECK_MSG(strstr(r.out, want[i].line) != NULL, "%s lacks '%s':\n%s", want[i].scene,
                  want[i].line, r.out);
        run_free(&r);
    }
    /* The seed preset's defaults are the seed page's. */
    struct run r = swirl("--scene pbf --preset seed --set help");
    CHECK(strstr(r.out, "block-width            30 ") != NULL);
    run_free(&r);
}

TEST_E2E(cli_set_errors_name_the_parameter_and_its_range)
{
    check_refused("--scene pbf --set max-iterations=1000", "max-iterations wants 1 to 500");
    check_refused("--scene pbf --set max-iterations=2.5", "max-iterations wants 1 to 500");
    check_refused("--scene pbf --set max-iterations=lots", "not 'lots'");
    check_refused("--scene pbf --set time-step=0.5", "time-step wants 0.001 to 0.02");
    check_refused("--scene pbf --set time-step=nan", "time-step wants");
    check_refused("--scene cloth --set fixed-particles=3", "fixed-particles wants 1, 2 or 4");
    check_refused("--scene cloth --set tearing=maybe", "tearing wants on or off");
    check_refused("--scene dye --set block-width=10", "no parameter 'block-width'");
    check_refused("--set vorticity", "NAME=VALUE");
    check_refused("--headless --scene cloth --set width=0 --steps 1", "width wants 2 to 300");
}

TEST_E2E(cli_refuses_what_it_would_ignore)
{
    check_refused("--scene pbf --grid 40x40", "--grid is for the dye scene");
    check_refused("--scene pbf --scene cloth", "--scene given twice");
    check_refused("--demo --scene pbf", "--demo");
    check_refused("--preset seed", "--preset seed is for pbf and cloth");
    check_refused("--headless --steps 10 --fps 60", "--fps is about drawing");
    check_refused("--headless --steps 10 --color 256", "--color is about drawing");
    check_refused("--headless --steps 10 --tolerance 3", "--tolerance is about drawing");
    check_refused("--version junk", "takes no other options");
    check_refused("-\xc3\xa9", "unknown option '-\xc3\xa9'");
    /* Numbers, each option's range: test_cli_parse.c; here that the binary
     * refuses one with exit status 2 and one line. */
    check_refused("--fps 1e9", "--fps wants a whole number from 1 to 240");
}

/* -h and -V are --help and --version; an ambiguous prefix is named as one, a
 * mistyped option with the nearest; a --record path that cannot be a file is
 * refused before a long run starts. */
TEST_E2E(cli_short_options_prefixes_and_record_names)
{
    struct run r = swirl("-h");
    CHECK_MSG(r.status == 0 && strncmp(r.out, "usage: swirl", 12) == 0 && !r.err[0],
              "-h: status %d, stderr %s", r.status, r.err);
    run_free(&r);
    r = swirl("-V");
    CHECK_MSG(r.status == 0 && strncmp(r.out, "swirl ", 6) == 0 && !r.err[0], "-V: %s", r.out);
    run_free(&r);
    check_refused("--s", "ambiguous option '--s' (could be --scene, --screensaver, ");
    check_refused("--colr 256", "swirl: unknown option '--colr' (did you mean --color?)\n");
    check_refused("--headless --seconds 3600 --record ''", "--record: the file name is empty");
    check_refused("--record ''", "--record: the file name is empty");
    check_refused("--headless --seconds 3600 --record /tmp/swirl-no-such-dir/",
                  "ends in '/'");
}

TEST_E2E(cli_errors_echo_control_characters_escaped)
{
    struct run r = swirl("\"$(printf -- '--\\033]2;pwned\\007\\033[2J')\"");
    CHECK_INT(r.status, 2);
    CHECK_MSG(strchr(r.err, 0x1b) == NULL && strchr(r.err, 0x07) == NULL, "raw escapes: %s",
              r.err);
    CHECK_MSG(strstr(r.err, "\\x1b]2;pwned\\x07") != NULL, "stderr: %s", r.err);
    run_free(&r);
}

/* Memory that runs out while the first scene is created: one line, exit
 * status 1, headless and in a terminal (which is given back whole). */
TEST_E2E(cli_first_scene_out_of_memory_fails_cleanly)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh -c 'ulimit -v 300000; exec ./swirl --headless --grid 4000x2000 "
             "--steps 1' </dev/null >/dev/null 2>/tmp/swirl-oom-%d.err", (int)getpid());
    int st = system(cmd);
    char path[64];
    snprintf(path, sizeof path, "/tmp/swirl-oom-%d.err", (int)getpid());
    size_t n;
    char *err = e2e_slurp(path, &n);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status %d", st);
    CHECK_MSG(err && strstr(err, "cannot start the scene") && strchr(err, '\n') == err + n - 1,
              "stderr: %s", err ? err : "(none)");
    free(err);
    remove(path);
    CHECK(e2e_start(80, 24, "env TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 "
                            "sh -c 'ulimit -v 300000; exec ./swirl --grid 4000x2000'; "
                            "echo SWIRL-EXIT=\\$?; sleep 60"));
    CHECK(e2e_wait_for(e2e_plain, "SWIRL-EXIT=1"));
    CHECK(e2e_wait_for(e2e_plain, "cannot start the scene"));
    CHECK_MSG(e2e_wait_for(e2e_modes, "0 1 0 0 0"), "modes: %s", e2e_modes());
    e2e_stop();
}

/* Recordings never cost a file: an existing one is refused (kept as it was)
 * unless --overwrite, nothing is created before swirl is sure to run, and
 * what is not a regular file in a writable folder is refused at once. */
TEST_E2E(cli_record_refuses_what_it_would_spoil)
{
    char dir[64], keep[96], args[256];
    snprintf(dir, sizeof dir, "/tmp/swirl-rec-%d", (int)getpid());
    snprintf(keep, sizeof keep, "%s/keep.cast", dir);
    e2e_sh("rm -rf %s && mkdir -p %s && printf 'precious' > %s && mkfifo %s/fifo", dir, dir,
           keep, dir);
    snprintf(args, sizeof args, "--headless --seconds 1 --record %s", keep);
    check_refused(args, "exists (--overwrite replaces it)");
    size_t n;
    char *kept = e2e_slurp(keep, &n);
    CHECK(kept && strcmp(kept, "precious") == 0);
    free(kept);
    /* A terminal type with no terminfo: the file is not touched, and a new one
     * is not created. */
    snprintf(args, sizeof args, "cd %s && TERM=no-such-term script -qec '%s/swirl --record "
             "keep.cast --overwrite; %s/swirl --record new.cast' /dev/null >/dev/null 2>&1",
             dir, getenv("PWD") ? getenv("PWD") : ".", getenv("PWD") ? getenv("PWD") : ".");
    e2e_sh("%s", args);
    kept = e2e_slurp(keep, &n);
    CHECK_MSG(kept && strcmp(kept, "precious") == 0, "keep.cast: %s", kept ? kept : "(gone)");
    free(kept);
    snprintf(args, sizeof args, "%s/new.cast", dir);
    CHECK_MSG(access(args, F_OK) != 0, "new.cast was created");
    /* Not a regular file, not a writable place: refused at once (a FIFO would
     * block an open for writing). */
    snprintf(args, sizeof args, "--headless --seconds 1 --record %s/fifo --overwrite", dir);
    check_refused(args, "not a regular file");
    snprintf(args, sizeof args, "--headless --seconds 1 --record %s --overwrite", dir);
    check_refused(args, "is a directory");
    check_refused("--headless --seconds 1 --record /dev/full --overwrite", "not a regular file");
    check_refused("--headless --seconds 1 --record /proc/swirl.cast", "/proc");
    check_refused("--headless --seconds 1 --record /no/such/dir/x.cast", "/no/such/dir");
    /* --overwrite replaces it with a whole recording, and leaves no temporary. */
    snprintf(args, sizeof args, "--headless --seconds 1 --record %s --overwrite", keep);
    struct run r = swirl(args);
    CHECK_INT(r.status, 0);
    run_free(&r);
    kept = e2e_slurp(keep, &n);
    CHECK(kept && strncmp(kept, "{\"version\": 2", 13) == 0);
    free(kept);
    CHECK_MSG(e2e_sh("test -z \"$(ls -A %s | grep -v '^keep.cast$\\|^fifo$')\"", dir) == 0,
              "leftovers in %s", dir);
    e2e_sh("rm -rf %s", dir);
}

/* Every line a whole asciicast event (or the header). */
static bool valid_cast(const char *text)
{
    if (!text || strncmp(text, "{\"version\": 2", 13) != 0)
        return false;
    for (const char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        const char *end = strchr(p + 1, '\n');
        if (!end || p[1] != '[' || end[-1] != ']')
            return false;
    }
    return text[strlen(text) - 1] == '\n';
}

/* A disk that fills up in the middle: recording stops, what was written stays a
 * valid recording, swirl says so and goes on to the end. */
TEST_E2E(cli_record_on_a_full_disk_keeps_a_valid_file)
{
    char dir[64], args[256];
    snprintf(dir, sizeof dir, "/tmp/swirl-full-%d", (int)getpid());
    if (e2e_sh("mkdir -p %s && mount -t tmpfs -o size=256k tmpfs %s 2>/dev/null", dir, dir)) {
        printf("skipped cli_record_on_a_full_disk_keeps_a_valid_file: cannot mount a tmpfs\n");
        e2e_sh("rmdir %s", dir);
        return;
    }
    snprintf(args, sizeof args, "--headless --scene dye --auto --seconds 20 --record %s/a.cast",
             dir);
    struct run r = swirl(args);
    CHECK_MSG(r.status == 1 && strstr(r.err, "recording stopped at") &&
                  strstr(r.err, "No space left"), "status %d: %s", r.status, r.err);
    run_free(&r);
    snprintf(args, sizeof args, "%s/a.cast", dir);
    size_t n;
    char *cast = e2e_slurp(args, &n);
    CHECK_MSG(cast && n > 1000 && valid_cast(cast), "a.cast: %zu bytes", cast ? n : 0);
    free(cast);
    e2e_sh("umount %s; rmdir %s", dir, dir);
}

static char pane_pid[32];
/* "gone" once the pane's swirl has ended. */
static const char *swirl_state(void)
{
    return e2e_sh("pgrep -P %s -x swirl >/dev/null", pane_pid) == 0 ? "running" : "gone";
}

/* Killed in the middle of a recording over an existing file: the old file
 * stays whole (the recording was going to a temporary beside it); ended by
 * SIGTERM: the new one is whole. */
TEST_E2E(cli_record_killed_in_the_middle)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/swirl-kill-%d.cast", (int)getpid());
    e2e_sh("printf 'old' > %s", path);
    static const char *const sig[] = {"KILL", "TERM"};
    for (int k = 0; k < 2; k++) {
        char args[128];
        snprintf(args, sizeof args, "--record %s --overwrite", path);
        CHECK(e2e_start_swirl(80, 24, "COLORTERM=truecolor", args));
        CHECK(e2e_wait_hud());
        snprintf(pane_pid, sizeof pane_pid, "%s", e2e_tmux("display -p -t e '#{pane_pid}'"));
        pane_pid[strcspn(pane_pid, "\n")] = 0;
        e2e_sh("pkill -%s -P %s -x swirl", sig[k], pane_pid);
        CHECK(e2e_wait_for(swirl_state, "gone"));
        e2e_stop();
        size_t n;
        char *got = e2e_slurp(path, &n);
        if (k == 0)
            CHECK_MSG(got && strcmp(got, "old") == 0, "after SIGKILL: %.20s", got ? got : "");
        else
            CHECK_MSG(got && valid_cast(got), "after SIGTERM: not a whole recording");
        free(got);
    }
    e2e_sh("rm -f %s /tmp/.swirl-kill-%d.cast.*", path, (int)getpid());
}

/* The statistics without their timings. */
static void strip_ms(char *s)
{
    for (char *p; (p = strstr(s, "\"ms")) != NULL;) {
        char *end = p + 3;
        while (*end && *end != ',' && *end != '}')
            end++;
        memmove(p, end, strlen(end) + 1);
    }
}

/* A fixed seed gives the same statistics and the same recording for any
 * number of threads, in every scene, with a drag (--auto) and with tearing. */
TEST_E2E_CPU(cli_results_do_not_depend_on_the_thread_count)
{
    static const char *const runs[] = {
        "--headless --scene dye --auto --steps 200 --every 50",
        "--headless --scene pbf --auto --steps 200 --every 50",
        "--headless --scene pbf --preset seed --steps 100 --every 50",
        ("--headless --scene cloth --auto --set tearing=on --set tear-strain=0.1 --steps 300 "
         "--every 100"),
        "--headless --scene cloth --preset seed --steps 200 --every 100",
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *first = NULL;
        for (int t = 1; t <= 4; t *= 2) {
            char args[256];
            snprintf(args, sizeof args, "%s --threads %d", runs[i], t);
            struct run r = swirl(args);
            CHECK_INT(r.status, 0);
            strip_ms(r.out);
            if (!first)
                first = strdup(r.out);
            else
                CHECK_MSG(strcmp(first, r.out) == 0, "%s: --threads %d differs:\n%s\n%s", runs[i],
                          t, first, r.out);
            run_free(&r);
        }
        free(first);
    }
    /* A whole tour recorded on one thread and on two: the same bytes. (Two,
     * not more: on a machine of two cores, busy besides, each thread past its
     * cores spends its time waiting on the others' parts; the frames on one
     * thread and on three are test_frames.c's.) */
    char a[64], b[64], args[256];
    snprintf(a, sizeof a, "/tmp/swirl-thr-%d-1.cast", (int)getpid());
    snprintf(b, sizeof b, "/tmp/swirl-thr-%d-2.cast", (int)getpid());
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args, "--headless --demo --seconds 30 --size 80x24 --threads %d "
                 "--record %s --overwrite", k ? 2 : 1, k ? b : a);
        struct run r = swirl(args);
        CHECK_INT(r.status, 0);
        run_free(&r);
    }
    CHECK_MSG(e2e_sh("cmp -s %s %s", a, b) == 0, "recordings differ with 1 and 2 threads");
    remove(a);
    remove(b);
}
