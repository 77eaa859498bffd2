/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for src/core/hbase-error.c: failures of generated calls become
 * HBASE_ERROR with the gateway's text kept. */
#include "config.h"

#include <thrift/c_glib/protocol/thrift_protocol.h>
#include <thrift/c_glib/thrift_application_exception.h>
#include <thrift/c_glib/transport/thrift_transport.h>

#include <hbase-glib/hbase-glib-thrift.h>

static HbaseThriftTIOError *
io_error_new (const char *message, gboolean can_retry)
{
  return g_object_new (HBASE_THRIFT_TYPE_T_I_O_ERROR,
                       "message", message, "canRetry", can_retry, NULL);
}

static GError *
generated_io_error (void)
{
  /* What the generated code sets next to the exception object. */
  return g_error_new_literal (HBASE_THRIFT_T_I_O_ERROR_ERROR,
                              HBASE_THRIFT_T_I_O_ERROR_ERROR_CODE, "TIOError");
}

static void
test_domain (void)
{
  g_assert_cmpstr (g_quark_to_string (HBASE_ERROR), ==, "HBaseError");
}

static void
test_io_error_keeps_server_message (void)
{
  g_autoptr(HbaseThriftTIOError) io = io_error_new ("java.io.IOException: region is closing", FALSE);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "java.io.IOException: region is closing"));
  g_assert_null (strstr (error->message, "retryable"));
  g_assert_false (hbase_error_get_can_retry (error));
}

static void
test_io_error_retryable (void)
{
  g_autoptr(HbaseThriftTIOError) io = io_error_new ("busy", TRUE);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "retryable"));
  g_assert_nonnull (strstr (error->message, "busy"));
  g_assert_true (hbase_error_get_can_retry (error));

  /* the flag survives a copy, and errors of other domains never have it */
  {
    g_autoptr(GError) copy = g_error_copy (error);
    g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");

    g_assert_true (hbase_error_get_can_retry (copy));
    g_assert_false (hbase_error_get_can_retry (other));
  }
}

/* A batch failing on an unknown family arrives flagged retryable; its
 * text names the cause, which is not. */
static void
test_io_error_do_not_retry_cause (void)
{
  g_autoptr(HbaseThriftTIOError) io =
    io_error_new ("org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: Failed 1 "
                  "action: org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: "
                  "Column family nope does not exist in region t: 1 time", TRUE);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_false (hbase_error_get_can_retry (error));
  g_assert_null (strstr (error->message, "(retryable)"));
  g_assert_nonnull (strstr (error->message, "Column family nope does not exist"));
}

static void
test_table_not_found (void)
{
  g_autoptr(HbaseThriftTIOError) io =
    io_error_new ("org.apache.hadoop.hbase.TableNotFoundException: no_such_table", FALSE);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "no_such_table"));
}

static void
test_illegal_argument (void)
{
  g_autoptr(HbaseThriftTIllegalArgument) ia =
    g_object_new (HBASE_THRIFT_TYPE_T_ILLEGAL_ARGUMENT, "message", "Invalid scanner Id", NULL);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, NULL, NULL, ia);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Invalid scanner Id"));
}

static void
test_thrift_domains (void)
{
  struct {
    GQuark domain;
    int code;
    HBaseError expected;
  } cases[] = {
    { THRIFT_TRANSPORT_ERROR, THRIFT_TRANSPORT_ERROR_RECEIVE, HBASE_ERROR_CONNECTION },
    { THRIFT_TRANSPORT_ERROR, THRIFT_TRANSPORT_ERROR_SEND, HBASE_ERROR_CONNECTION },
    { THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_BAD_VERSION, HBASE_ERROR_PROTOCOL },
    { THRIFT_APPLICATION_EXCEPTION_ERROR, THRIFT_APPLICATION_EXCEPTION_ERROR_INTERNAL_ERROR, HBASE_ERROR_SERVER },
    { THRIFT_APPLICATION_EXCEPTION_ERROR, THRIFT_APPLICATION_EXCEPTION_ERROR_UNKNOWN_METHOD, HBASE_ERROR_PROTOCOL },
    { HBASE_ERROR, HBASE_ERROR_TIMEOUT, HBASE_ERROR_TIMEOUT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      GError *call_error = g_error_new (cases[i].domain, cases[i].code, "case %u says why", i);
      g_autofree char *expected_text = g_strdup_printf ("case %u says why", i);

      hbase_error_take_call_error (&error, call_error, NULL, NULL);
      g_assert_error (error, HBASE_ERROR, (int) cases[i].expected);
      g_assert_cmpstr (error->message, ==, expected_text);
    }
}

static void
test_cancellation_passes_through (void)
{
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                            "Operation was cancelled"),
                               NULL, NULL);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
test_nothing_known (void)
{
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, NULL, NULL, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL);
}

static void
test_ignored_error_is_freed (void)
{
  /* With no destination the call error is still consumed (valgrind and
   * ASan runs would report the leak). */
  hbase_error_take_call_error (NULL, generated_io_error (), NULL, NULL);
}

/* The generated GTypes know every value, by name and nick. */
static void
test_enum_types (void)
{
  g_autoptr(GEnumClass) codes = g_type_class_ref (HBASE_TYPE_ERROR);
  g_autoptr(GEnumClass) ops = g_type_class_ref (HBASE_TYPE_COMPARE_OP);
  g_autoptr(GFlagsClass) flags = g_type_class_ref (HBASE_TYPE_ZADD_FLAGS);
  GEnumValue *value;

  g_assert_true (G_TYPE_IS_ENUM (HBASE_TYPE_ERROR));
  g_assert_cmpstr (g_type_name (HBASE_TYPE_ERROR), ==, "HBaseError");
  value = g_enum_get_value (codes, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (value);
  g_assert_cmpstr (value->value_nick, ==, "bad-data");
  g_assert_cmpint (g_enum_get_value_by_nick (ops, "greater-or-equal")->value, ==,
                   HBASE_COMPARE_GREATER_OR_EQUAL);
  g_assert_true (G_TYPE_IS_FLAGS (HBASE_TYPE_ZADD_FLAGS));
  g_assert_cmpuint (g_flags_get_value_by_nick (flags, "nx")->value, ==, HBASE_ZADD_NX);
  g_assert_true (G_TYPE_IS_ENUM (HBASE_TYPE_DURABILITY));
  g_assert_true (G_TYPE_IS_ENUM (HBASE_TYPE_MUTATION_KIND));
  g_assert_true (G_TYPE_IS_ENUM (HBASE_TYPE_PROTOCOL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/error/domain", test_domain);
  g_test_add_func ("/core/error/io-error-keeps-server-message", test_io_error_keeps_server_message);
  g_test_add_func ("/core/error/io-error-retryable", test_io_error_retryable);
  g_test_add_func ("/core/error/io-error-do-not-retry-cause", test_io_error_do_not_retry_cause);
  g_test_add_func ("/core/error/table-not-found", test_table_not_found);
  g_test_add_func ("/core/error/illegal-argument", test_illegal_argument);
  g_test_add_func ("/core/error/thrift-domains", test_thrift_domains);
  g_test_add_func ("/core/error/cancellation-passes-through", test_cancellation_passes_through);
  g_test_add_func ("/core/error/nothing-known", test_nothing_known);
  g_test_add_func ("/core/error/ignored-error-is-freed", test_ignored_error_is_freed);
  g_test_add_func ("/core/enum-types", test_enum_types);
  return g_test_run ();
}
