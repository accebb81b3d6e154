/*
 * test_link.c — swirl behind a link (tests/link/linkpty: a terminal at the far
 * end of a link with a rate and a delay each way, answering as a terminal
 * does, only once what it was sent has arrived). Checked in what the terminal
 * sees, with margins no loaded machine comes near: frames keep coming at any
 * round trip (the swirl of before showed none past 0.1 s); q ends swirl within
 * a round trip and a little, and over a slow link the bytes that went after
 * q are a fraction of a second of it; a stopped link does not keep swirl;
 * nothing the terminal answers, however late, is left for the shell, after
 * q or a fatal signal, even when q comes before the start-up answers do.
 */
#include "e2e.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const scenes[] = {"--auto", "--scene pbf --auto", "--scene cloth --auto"};

/* One linkpty run; the JSON line it printed (a static buffer). */
static const char *linkpty(const char *opts, double rate, double quit_after, const char *args)
{
    static char line[1024];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "./build/linkpty %s %.0f %.2f ./swirl --no-config %s", opts, rate,
             quit_after, args);
    FILE *p = popen(cmd, "r");
    line[0] = 0;
    if (!p || !fgets(line, sizeof line, p))
        line[0] = 0;
    if (p)
        pclose(p);
    return line;
}

static double field(const char *line, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *f = strstr(line, key);
    return f ? strtod(f + strlen(key), NULL) : -1.0;
}

static bool left_screen(const char *line) { return strstr(line, "\"left_screen\":true") != NULL; }

/* One run after which swirl has left the screen and the tty echoed nothing
 * of the terminal's answers (none reached the shell). */
static void leaves_no_answer(const char *opts, double rate, double quit_after, const char *args)
{
    const char *line = linkpty(opts, rate, quit_after, args);
    CHECK_MSG(field(line, "echoed") == 0.0 && left_screen(line),
              "linkpty %s, q or signal at %.1f s, ./swirl %s: %s", opts, quit_after, args, line);
}

/* A slow local terminal (the queue is the pty's): after q, the link carries
 * no more than 0.3 s worth of output before swirl has left the screen. */
static void quit_is_prompt(double rate, int s)
{
    const char *line = linkpty("-p", rate, 2.0, scenes[s]);
    double n = field(line, "bytes_after_quit");
    CHECK_MSG(left_screen(line) && n >= 0 && n <= rate * 0.3, "%.0f B/s, %s: %s", rate,
              scenes[s], line);
}

/* Each run of the link tests is a test of its own (they wait, on the link's
 * delays, and the runner runs several at once). */
TEST_E2E_WAITS(link_quit_is_prompt_at_20_kb_per_second_dye) { quit_is_prompt(20000, 0); }
TEST_E2E_WAITS(link_quit_is_prompt_at_20_kb_per_second_pbf) { quit_is_prompt(20000, 1); }
TEST_E2E_WAITS(link_quit_is_prompt_at_20_kb_per_second_cloth) { quit_is_prompt(20000, 2); }
TEST_E2E_WAITS(link_quit_is_prompt_at_100_kb_per_second_dye) { quit_is_prompt(100000, 0); }
TEST_E2E_WAITS(link_quit_is_prompt_at_100_kb_per_second_pbf) { quit_is_prompt(100000, 1); }
TEST_E2E_WAITS(link_quit_is_prompt_at_100_kb_per_second_cloth) { quit_is_prompt(100000, 2); }

/* The link stops half a second before q (a frozen terminal, a stalled
 * connection: swirl's writes no longer go anywhere): q ends swirl within a
 * generous second, and the restore sequence is among what it wrote. */
static void quit_when_stalled(double rate, int s)
{
    const char *line = linkpty("-p -s 1.5", rate, 2.0, scenes[s]);
    double t = field(line, "exit_latency");
    CHECK_MSG(t >= 0.0 && t <= 1.0 && left_screen(line), "%.0f B/s stalled, %s: %s", rate,
              scenes[s], line);
}

TEST_E2E_WAITS(link_quit_is_prompt_when_a_fast_link_stalls_dye) { quit_when_stalled(1000000, 0); }
TEST_E2E_WAITS(link_quit_is_prompt_when_a_fast_link_stalls_pbf) { quit_when_stalled(1000000, 1); }
TEST_E2E_WAITS(link_quit_is_prompt_when_a_fast_link_stalls_cloth) { quit_when_stalled(1000000, 2); }
TEST_E2E_WAITS(link_quit_is_prompt_when_a_slow_link_stalls_dye) { quit_when_stalled(20000, 0); }
TEST_E2E_WAITS(link_quit_is_prompt_when_a_slow_link_stalls_pbf) { quit_when_stalled(20000, 1); }
TEST_E2E_WAITS(link_quit_is_prompt_when_a_slow_link_stalls_cloth) { quit_when_stalled(20000, 2); }

/* A fatal signal while answers are on their way (at 20 KB/s a tenth of a
 * second of output is): the handler restores the terminal and swallows
 * them, so none is echoed for the shell. */
static void crash_leaves_no_answer(const char *opts, const char *args)
{
    leaves_no_answer(opts, 20000, 2.0, args);
}

TEST_E2E_WAITS(link_a_segv_leaves_no_answer_for_the_shell_dye)
{
    crash_leaves_no_answer("-p -k 11", "--auto");
}
TEST_E2E_WAITS(link_a_segv_leaves_no_answer_for_the_shell_cloth)
{
    crash_leaves_no_answer("-p -k 11", "--scene cloth --auto");
}
TEST_E2E_WAITS(link_an_abort_leaves_no_answer_for_the_shell)
{
    crash_leaves_no_answer("-p -k 6", "--auto");
}
TEST_E2E_WAITS(link_a_sigterm_leaves_no_answer_for_the_shell)
{
    crash_leaves_no_answer("-p -k 15", "--auto");
}
TEST_E2E_WAITS(link_a_segv_far_away_leaves_no_answer_for_the_shell)
{
    crash_leaves_no_answer("-d 0.1 -k 11", "--auto");
}

/* Far away with bandwidth to spare (0.15 s each way): frames keep coming (the
 * fps figure is the bench's; here, more than a few a second is enough to
 * tell it from the flow control that showed none), q is seen within the
 * round trip and half a second, and nothing is left for the shell. */
static void frames_keep_coming(int s)
{
    const char *line = linkpty("-w 120x40 -d 0.15", 0, 3.5, scenes[s]);
    double fps = field(line, "fps"), q = field(line, "quit_latency");
    CHECK_MSG(fps >= 10.0 && q >= 0.3 && q <= 0.8 && field(line, "echoed") == 0.0 &&
                  left_screen(line),
              "%s: %s", scenes[s], line);
}

TEST_E2E_WAITS(link_frames_keep_coming_at_a_long_round_trip_dye) { frames_keep_coming(0); }
TEST_E2E_WAITS(link_frames_keep_coming_at_a_long_round_trip_pbf) { frames_keep_coming(1); }
TEST_E2E_WAITS(link_frames_keep_coming_at_a_long_round_trip_cloth) { frames_keep_coming(2); }

/* Answers that come late, behind a round trip of 0.3 s and of 1 s: q after
 * seconds of frames, and q before even the start-up questions' answers have
 * come: all of them are read back before swirl leaves, none reaches the shell. */
static void late_answers(const char *opts, double quit_after)
{
    leaves_no_answer(opts, 200000, quit_after, "--auto");
}

TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_near) { late_answers("-d 0.15", 2.0); }
TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_far) { late_answers("-d 0.5", 2.5); }
TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_near_quit_at_once)
{
    late_answers("-d 0.15", 0.1);
}
TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_far_quit_at_once)
{
    late_answers("-d 0.5", 0.3);
}
TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_far_and_slow)
{
    late_answers("-d 0.5 -p", 2.5);
}

/* A terminal 3 s away (1.5 s each way): q after its answers have begun to
 * come; the wait on leaving follows the link, up to its fence. */
TEST_E2E_WAITS(link_late_answers_never_reach_the_shell_three_seconds_away)
{
    late_answers("-d 1.5", 6.0);
}

/* A terminal that answers nothing: q in the first seconds exits at once (it
 * waits only until FLOW_QUIET after the questions), and later at once too. */
static void silent_quits_at_once(double quit_after, double most)
{
    const char *line = linkpty("-n", 200000, quit_after, "--auto");
    double took = field(line, "exit_latency");
    CHECK_MSG(left_screen(line) && took >= 0.0 && took <= most, "q at %.1f s: %s", quit_after,
              line);
}
TEST_E2E_WAITS(link_silent_terminal_quits_at_once_early) { silent_quits_at_once(0.3, 1.6); }
TEST_E2E_WAITS(link_silent_terminal_quits_at_once_later) { silent_quits_at_once(2.5, 0.5); }

/* A slow link far away (20 KB/s, 0.1 s each way, queued beyond swirl's reach
 * as in sshd): frames still come, each cut to what the link carries, and q is
 * seen within a round trip and a little, not behind seconds of frames (the
 * bench has it at 0.2-0.3 s; once, in CI, a UBSan build on a loaded machine
 * took 1.2 s, so the margin here is a second and a half). */
static void slow_and_far(int s)
{
    const char *line = linkpty("-w 120x40 -d 0.1", 20000, 4.5, scenes[s]);
    double fps = field(line, "fps"), q = field(line, "quit_latency");
    CHECK_MSG(fps >= 2.0 && q >= 0.2 && q <= 1.5 && left_screen(line), "%s: %s", scenes[s], line);
}

TEST_E2E_WAITS(link_slow_and_far_stays_live_dye) { slow_and_far(0); }
TEST_E2E_WAITS(link_slow_and_far_stays_live_pbf) { slow_and_far(1); }
TEST_E2E_WAITS(link_slow_and_far_stays_live_cloth) { slow_and_far(2); }

/* The colours the user chose stay what they chose, however slow the link;
 * those detected stay 24-bit at 20 KB/s too (the picture gets coarser
 * first: 256 colours are the ladder's last level, tested in test_ladder.c). */
TEST_E2E_WAITS(link_detected_colours_stay_on_a_slow_link)
{
    const char *line = linkpty("-w 120x40 -d 0.05", 20000, 4.0, "--scene cloth --auto");
    CHECK_MSG(field(line, "sgr256") == 0 && field(line, "frames") > 2 && left_screen(line),
              "detected colours: %s", line);
}
TEST_E2E_WAITS(link_chosen_colours_are_kept_on_a_slow_link)
{
    const char *line =
        linkpty("-w 120x40 -d 0.05", 20000, 4.0, "--scene cloth --auto --color truecolor");
    CHECK_MSG(field(line, "sgr256") == 0 && left_screen(line), "--color truecolor: %s", line);
}

/* Every synchronized update begun is ended, and none ended that was not
 * begun, whatever ends swirl: q on a slow local link (the pty's queue, with
 * the update's start, maybe, flushed on the way out), q behind a round trip,
 * a stalled link, SIGTERM. */
static void updates_each_end(const char *opts, double rate)
{
    const char *line = linkpty(opts, rate, 2.0, "--auto");
    CHECK_MSG(field(line, "frames") > 0 && field(line, "sync_open") == 0.0 &&
                  field(line, "sync_stray") == 0.0 && left_screen(line),
              "linkpty %s: %s", opts, line);
}

TEST_E2E_WAITS(link_synchronized_frames_each_end_after_q) { updates_each_end("-p", 20000); }
TEST_E2E_WAITS(link_synchronized_frames_each_end_far_away) { updates_each_end("-d 0.1", 200000); }
TEST_E2E_WAITS(link_synchronized_frames_each_end_when_stalled) { updates_each_end("-p -s 1.5", 20000); }
TEST_E2E_WAITS(link_synchronized_frames_each_end_on_sigterm) { updates_each_end("-p -k 15", 20000); }
