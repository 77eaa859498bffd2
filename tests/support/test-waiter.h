/* SPDX-License-Identifier: Apache-2.0 */
/* test-waiter.h: waiting for an async result on the thread-default main
 * context, for the tests of _async/_finish pairs. */
#ifndef TEST_WAITER_H
#define TEST_WAITER_H

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  GMainLoop *loop;
  GAsyncResult *result;
} TestWaiter;

void          test_waiter_init  (TestWaiter   *waiter);
/* A GAsyncReadyCallback; user_data is the TestWaiter. */
void          test_waiter_done  (GObject      *source,
                                 GAsyncResult *result,
                                 gpointer      user_data);
/* Runs the main loop until the callback came (aborting after 60 s);
 * the result stays the waiter's until test_waiter_clear(). */
GAsyncResult *test_waiter_run   (TestWaiter   *waiter);
void          test_waiter_clear (TestWaiter   *waiter);

G_END_DECLS

#endif /* TEST_WAITER_H */
