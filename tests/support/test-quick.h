/* SPDX-License-Identifier: Apache-2.0 */
/* test-quick.h: whether tests run in their quick mode (fewer rows, steps
 * and random cases), as make check-valgrind and the second passes of
 * scripts/test.sh ask with HBASE_GLIB_TEST_QUICK. */
#ifndef TEST_QUICK_H
#define TEST_QUICK_H

#include <glib.h>

G_BEGIN_DECLS

/* HBASE_GLIB_TEST_QUICK as a boolean: 1, true, yes or on (any case) is
 * TRUE; 0, false, no, off, empty or unset is FALSE.  Any other value
 * aborts the test program with a message naming the value. */
gboolean test_quick (void);

G_END_DECLS

#endif /* TEST_QUICK_H */
