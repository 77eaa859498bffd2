/* SPDX-License-Identifier: Apache-2.0 */
/* zset-commands-cases.h: the cases of zset-commands-cases.c, which
 * test-zset.c adds to its suite. */
#ifndef ZSET_COMMANDS_CASES_H
#define ZSET_COMMANDS_CASES_H

#include "../support/test-table-fixture.h"

G_BEGIN_DECLS

extern const TestTableCase zset_command_cases[];
extern const guint zset_command_n_cases;

G_END_DECLS

#endif /* ZSET_COMMANDS_CASES_H */
