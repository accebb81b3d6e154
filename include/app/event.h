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
 * (CSI row ; col R), and to the questions asked at start-up (INPUT_ANSWER,
 * what it answers in answer.kind). */
enum input_type { INPUT_KEY, INPUT_MOUSE, INPUT_PONG, INPUT_WHERE, INPUT_ANSWER };
static inline bool input_is_answer(enum input_type t) { return t >= INPUT_PONG; }
/* What an INPUT_ANSWER answers, and its values (answer.v). */
enum answer_kind {
    ANSWER_DA1,      /* CSI ? Ps ; ... c, the fence: v[0] the attributes 1-30 as
                      * bits (1 << 4: sixel) */
    ANSWER_MODE,     /* DECRQM, CSI ? mode ; state $ y: v[0] mode, v[1] state */
    ANSWER_SGR,      /* DECRQSS m: v[0] 2 (a 24-bit background, v[1] 0xRRGGBB),
                      * 5 (a palette one, v[1] its index), 0 (no background) */
    ANSWER_TCAP,     /* XTGETTCAP: v[0] 1 known, 0 not; v[1] 1 when RGB or Tc
                      * is among what it names */
    ANSWER_KITTY,    /* the kitty graphics protocol: v[0] the image id, v[1] 1
                      * OK, 0 an error */
    ANSWER_GRAPHICS, /* XTSMGRAPHICS, CSI ? Pi ; Ps ; Pv S: v[0] item, v[1]
                      * status, v[2] value */
    ANSWER_CELL,     /* CSI 6 ; height ; width t: v[0] width, v[1] height, in
                      * pixels */
    ANSWER_GEOMETRY, /* XTSMGRAPHICS item 2, CSI ? 2 ; Ps ; w ; h S: v[0] width,
                      * v[1] height of the largest sixel picture, v[2] status */
};
enum mouse_action { MOUSE_PRESS, MOUSE_DRAG, MOUSE_RELEASE, MOUSE_MOVE, MOUSE_WHEEL };

struct input_event {
    enum input_type type;
    int key;        /* INPUT_KEY: code point or IK_* */
    int alt;        /* key came with ESC prefix (Alt) */
    enum mouse_action action;
    int button;     /* 0 left, 1 middle, 2 right, INPUT_BUTTON_EXTRA + 0..3 for
                     * buttons 8-11; wheel: +1 up, -1 down */
    int x, y;       /* cell, 0-based */
    struct {
        enum answer_kind kind;
        int v[3];
    } answer;       /* INPUT_ANSWER */
};

#endif
