/* SPDX-License-Identifier: Apache-2.0 */
/* test-env.h: the switches tests read from the environment, each parsed
 * one way everywhere. */
#ifndef TEST_ENV_H
#define TEST_ENV_H

#include <glib.h>

G_BEGIN_DECLS

/* The environment variable @variable as a boolean: 1, true, yes or on (any
 * case) is TRUE; 0, false, no, off, empty or unset is FALSE.  Any other
 * value aborts the test program with a message naming the variable. */
gboolean test_env_boolean (const char *variable);

/* Whether tests run in their quick mode (fewer rows, steps and random
 * cases): HBASE_GLIB_TEST_QUICK, see test_env_boolean().  make
 * check-valgrind and the later passes of scripts/test.sh set it. */
gboolean test_quick (void);

/* How many times looser a test's time bounds are in this run: 20 under
 * valgrind (make check-valgrind sets HBASE_GLIB_TEST_UNDER_VALGRIND), 3 in
 * the other quick passes (the ASan build, the tarball's check), 1 in the
 * plain run, which is the one that checks the bounds as written. */
gint64 test_time_slack (void);

G_END_DECLS

#endif /* TEST_ENV_H */
