/* SPDX-License-Identifier: Apache-2.0 */
/* test-kerberos.h: the kerberized local stack for the Kerberos tests
 * (scripts/stack.sh start-secure): where its files are, tickets from its
 * keytabs, principals of a test's own through kadmin.local. */
#ifndef TEST_KERBEROS_H
#define TEST_KERBEROS_H

#include <glib.h>

G_BEGIN_DECLS

/* <state>/secure: $HBASE_GLIB_STATE_DIR/secure, else
 * $top_srcdir/.stack/secure.  Free with g_free(). */
char    *test_kerberos_secure_dir (void);

/* The stack's realm ($HBASE_GLIB_SECURE_REALM, else HBASE.GLIB.TEST). */
char    *test_kerberos_realm      (void);

/* A port of the stack from @variable (HBASE_GLIB_SECURE_*_PORT), else
 * @fallback. */
guint    test_kerberos_port       (const char *variable,
                                   guint       fallback);

/* kinit -kt @keytab @principal into the cache @ccache ("FILE:..."), the
 * tickets living @lifetime (kinit -l; NULL: the KDC's default).  Says why
 * in a test message and returns FALSE when kinit fails. */
gboolean test_kerberos_kinit      (const char *keytab,
                                   const char *principal,
                                   const char *lifetime,
                                   const char *ccache);

/* Makes the principal @name in the stack's KDC (kadmin.local, with the
 * KDC's own profile under @secure_dir), its tickets living at most
 * @max_life_s seconds (0: the default), and writes its key into @keytab
 * without changing it (-norandkey: keytabs of earlier runs stay valid).
 * Returns whether @keytab exists afterwards. */
gboolean test_kerberos_make_principal (const char *secure_dir,
                                       const char *realm,
                                       const char *name,
                                       guint       max_life_s,
                                       const char *keytab);

G_END_DECLS

#endif /* TEST_KERBEROS_H */
