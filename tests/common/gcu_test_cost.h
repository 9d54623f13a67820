// gcu_test_cost.h — a cost table's text for the tests of auto mode's model
// (internal tests only: the family names are the library's internal
// gcu_cost_family_name).
#ifndef GCU_TEST_COST_H
#define GCU_TEST_COST_H

#include "../../src/dispatch/gcu_cost.h"
#include <stdio.h>

// "device default", the device's settings (KEY VALUE lines, each ending in
// a newline), then "family F <rates>" for every family (rates ends in a
// newline), into text; the length written (snprintf's, truncation as its)
static inline int gcu_test_cost_text (char *text, size_t size, const char *settings, const char *rates)
{
    int n = snprintf (text, size, "device default\n%s", settings) ;
    for (int f = 0 ; f < GCU_COST_NFAMILIES && n >= 0 && (size_t) n < size ; f++)
        n += snprintf (text + n, size - (size_t) n, "family %s %s", gcu_cost_family_name ((gcu_cost_family) f), rates) ;
    return n ;
}

#endif
