/*
 * event.h — input events: the keys and mouse actions a person makes, which
 * the app acts on (app_input), and the terminal's answers, which the terminal
 * side takes itself and never hands the app. The terminal's parser
 * (tty/input.h) makes them from its bytes; the tests make them by hand.
 * Cells are 0-based.
 */
#ifndef SWIRL_EVENT_H
#define SWIRL_EVENT_H

#include <stdbool.h>

/* Key codes beyond Unicode. */
enum {
    IK_NONE = 0,
    IK_ENTER = '\r',
    IK_TAB = '\t',
    IK_ESC = 27,
    IK_BACKSPACE = 127,
    IK_UP = 0x110001,
    IK_DOWN,
    IK_LEFT,
    IK_RIGHT,
    IK_HOME,
    IK_END,
    IK_PGUP,
    IK_PGDN,
    IK_DELETE,
    IK_BACKTAB,
};

#define INPUT_BUTTON_EXTRA 8 /* buttons 8-11 (SGR codes 128-131) */

/* INPUT_PONG, INPUT_WHERE and INPUT_ANSWER are the terminal's answers, not a
 * person's input: to a status request (CSI 0 n), to a cursor position request
 * (CSI row ; col R) and to DA1 (CSI ? ... c, the last of the start-up
 * questions, come late). */
enum input_type { INPUT_KEY, INPUT_MOUSE, INPUT_PONG, INPUT_WHERE, INPUT_ANSWER };
/* An INPUT_ANSWER of DECRQM (CSI ? mode ; state $ y) has the mode in key and
 * the state in button; DA1's has key 0. */
static inline bool input_is_answer(enum input_type t) { return t >= INPUT_PONG; }
enum mouse_action { MOUSE_PRESS, MOUSE_DRAG, MOUSE_RELEASE, MOUSE_MOVE, MOUSE_WHEEL };

struct input_event {
    enum input_type type;
    int key;        /* INPUT_KEY: code point or IK_* */
    int alt;        /* key came with ESC prefix (Alt) */
    enum mouse_action action;
    int button;     /* 0 left, 1 middle, 2 right, INPUT_BUTTON_EXTRA + 0..3 for
                     * buttons 8-11; wheel: +1 up, -1 down */
    int x, y;       /* cell, 0-based */
};

#endif
