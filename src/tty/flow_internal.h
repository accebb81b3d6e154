/*
 * flow_internal.h — private to src/tty/flow.c (and the tests): whether the link
 * has stopped, which the product learns only through flow_ready (flow.h).
 */
#ifndef SWIRL_FLOW_INTERNAL_H
#define SWIRL_FLOW_INTERNAL_H

#include "flow.h"

#include <stdbool.h>

/* Has the link stopped: the oldest ping is far older than the link explains? */
bool flow_stalled(const struct flow *f, double now);

#endif
