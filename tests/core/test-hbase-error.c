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
  g_assert_cmpstr (error->message, ==, "IOException: region is closing");
  g_assert_cmpstr (hbase_error_get_server_trace (error), ==, "java.io.IOException: region is closing");
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
 * text names the cause, which is not, and is a missing family: NOT_FOUND,
 * in doubt (the batch's other actions were applied). */
static void
test_io_error_do_not_retry_cause (void)
{
  g_autoptr(HbaseThriftTIOError) io =
    io_error_new ("org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: Failed 1 "
                  "action: org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: "
                  "Column family nope does not exist in region t: 1 time", TRUE);
  g_autoptr(GError) error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_true (hbase_error_is_in_doubt (error));
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
      gboolean from_server = cases[i].domain == THRIFT_APPLICATION_EXCEPTION_ERROR;
      /* the generated code's words for an exception the server sent */
      GError *call_error = g_error_new (cases[i].domain, cases[i].code, "%scase %u says why",
                                        from_server ? "application error: " : "", i);
      /* the server's exception is named when its text does not */
      g_autofree char *expected_text =
        g_strdup_printf ("%scase %u says why", from_server ? "TApplicationException: " : "", i);

      hbase_error_take_call_error (&error, call_error, NULL, NULL);
      g_assert_error (error, HBASE_ERROR, (int) cases[i].expected);
      g_assert_cmpstr (error->message, ==, expected_text);
    }
}

/* What the 2.6 gateway sends for a put to a family the table lacks
 * (shortened stack trace; the description is as long as HBase's). */
static const char missing_family_text[] =
  "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nofam does not "
  "exist in region t1,,1796324954929.3e54e02f9ae0cc3fd9236671bb8a1bc1. in table 't1', "
  "{TABLE_ATTRIBUTES => {METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT'}}}, "
  "{NAME => 'f', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '1', KEEP_DELETED_CELLS => 'FALSE', "
  "DATA_BLOCK_ENCODING => 'NONE', TTL => 'FOREVER', MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', "
  "BLOOMFILTER => 'ROW', IN_MEMORY => 'false', COMPRESSION => 'NONE', BLOCKCACHE => 'true', "
  "BLOCKSIZE => '65536 B (64KB)'}\n"
  "\tat org.apache.hadoop.hbase.regionserver.HRegion.checkFamily(HRegion.java:7916)\n"
  "\tat org.apache.hadoop.hbase.regionserver.HRegion.mutate(HRegion.java:4946)\n"
  "\tat org.apache.hadoop.hbase.ipc.RpcHandler.run(RpcHandler.java:85)\n";

static GError *
io_error_for (const char *text, gboolean can_retry)
{
  g_autoptr(HbaseThriftTIOError) io = io_error_new (text, can_retry);
  GError *error = NULL;

  hbase_error_take_call_error (&error, generated_io_error (), io, NULL);
  return error;
}

/* One line: the class without its package, the first line of the text,
 * the table description cut; the whole text is kept. */
static void
test_message_is_one_line (void)
{
  g_autoptr(GError) error = io_error_for (missing_family_text, FALSE);

  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_test_message ("%s", error->message);
  g_assert_null (strchr (error->message, '\n'));
  g_assert_true (g_str_has_prefix (error->message,
                                   "NoSuchColumnFamilyException: Column family nofam does not exist"));
  g_assert_nonnull (strstr (error->message, "in table 't1', {\xe2\x80\xa6}"));
  g_assert_null (strstr (error->message, "BLOCKSIZE"));
  g_assert_null (strstr (error->message, "org.apache"));
  g_assert_cmpuint (strlen (error->message), <, 200);
  g_assert_cmpstr (hbase_error_get_server_trace (error), ==, missing_family_text);
  g_assert_nonnull (strstr (hbase_error_get_server_trace (error), "\tat org.apache.hadoop.hbase"));

  /* a copy keeps the text; the original and the copy are freed apart */
  {
    g_autoptr(GError) copy = g_error_copy (error);

    g_assert_cmpstr (hbase_error_get_server_trace (copy), ==, missing_family_text);
    g_assert_true (hbase_error_get_server_trace (copy) != hbase_error_get_server_trace (error));
  }
}

static void
test_message_names_the_exception (void)
{
  struct {
    const char *text;
    gboolean can_retry;
    const char *message;
  } cases[] = {
    /* a wrapped exception: both classes */
    { "org.apache.hadoop.hbase.DoNotRetryIOException: org.apache.hadoop.hbase.TableNotFoundException: t\n\tat x",
      FALSE, "DoNotRetryIOException: TableNotFoundException: t" },
    /* a text naming no exception: the Thrift exception */
    { "my_table", FALSE, "TIOError: my_table" },
    { "", FALSE, "TIOError" },
    { "  \n\tat somewhere\n", FALSE, "TIOError: at somewhere" },
    /* dotted names that are no exception stay whole */
    { "java.io.IOException: table ns.Data in region ns.Data,,1.abc. closing\r\nmore", TRUE,
      "IOException: table ns.Data in region ns.Data,,1.abc. closing (retryable)" },
    /* a short braced text is kept */
    { "java.io.IOException: bad {x}", FALSE, "IOException: bad {x}" },
    /* an unclosed description is cut at its brace */
    { "java.io.IOException: in table 't', {NAME => 'f', VERSIONS => '1', TTL => 'FOREVER'", FALSE,
      "IOException: in table 't', {\xe2\x80\xa6}" },
    /* a batch: the cause inside the text is shortened too */
    { "org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException: Failed 1 action: "
      "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family nope does "
      "not exist: 1 time, servers with issues: localhost,16020,1", FALSE,
      "RetriesExhaustedWithDetailsException: Failed 1 action: NoSuchColumnFamilyException: Column "
      "family nope does not exist: 1 time, servers with issues: localhost,16020,1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = io_error_for (cases[i].text, cases[i].can_retry);

      g_assert_cmpstr (error->message, ==, cases[i].message);
      if (cases[i].text[0] != '\0')
        g_assert_cmpstr (hbase_error_get_server_trace (error), ==, cases[i].text);
      else
        g_assert_null (hbase_error_get_server_trace (error));
    }
}

/* A long first line is cut on a character boundary, with "…". */
static void
test_message_length_capped (void)
{
  g_autoptr(GString) text = g_string_new ("java.io.IOException: ");
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 300; i++)
    g_string_append (text, "\xc3\xa9");   /* é, 2 bytes */
  g_string_append (text, "\n\tat org.apache.x(X.java:1)");
  error = io_error_for (text->str, FALSE);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_true (g_str_has_suffix (error->message, "\xe2\x80\xa6"));
  g_assert_cmpuint (strlen (error->message), <=, 400 + 3);
  g_assert_cmpuint (strlen (error->message), >, 390);
  g_assert_cmpstr (hbase_error_get_server_trace (error), ==, text->str);
}

/* Invalid UTF-8 from the server becomes valid in the message and the text. */
static void
test_message_invalid_utf8 (void)
{
  g_autoptr(GError) error = io_error_for ("java.io.IOException: bad \xff byte\nat x", FALSE);

  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_true (g_utf8_validate (hbase_error_get_server_trace (error), -1, NULL));
  g_assert_true (g_str_has_prefix (error->message, "IOException: bad "));
}

static void
test_server_trace_absent (void)
{
  g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");
  g_autoptr(GError) local = NULL;
  g_autoptr(GError) transport = NULL;
  g_autoptr(GError) illegal = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia =
    g_object_new (HBASE_THRIFT_TYPE_T_ILLEGAL_ARGUMENT, "message",
                  "java.lang.IllegalArgumentException: Invalid scanner Id\n\tat org.apache.x", NULL);

  g_assert_null (hbase_error_get_server_trace (NULL));
  g_assert_null (hbase_error_get_server_trace (other));
  local = g_error_new_literal (HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "bad input");
  g_assert_null (hbase_error_get_server_trace (local));
  hbase_error_take_call_error (&transport, g_error_new_literal (THRIFT_TRANSPORT_ERROR,
                                                                THRIFT_TRANSPORT_ERROR_RECEIVE,
                                                                "connection reset"), NULL, NULL);
  g_assert_null (hbase_error_get_server_trace (transport));
  g_assert_cmpstr (transport->message, ==, "connection reset");
  /* a TIllegalArgument's text is the server's too */
  hbase_error_take_call_error (&illegal, NULL, NULL, ia);
  g_assert_cmpstr (illegal->message, ==, "IllegalArgumentException: Invalid scanner Id");
  g_assert_nonnull (strstr (hbase_error_get_server_trace (illegal), "at org.apache.x"));
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
  g_test_add_func ("/core/error/message-is-one-line", test_message_is_one_line);
  g_test_add_func ("/core/error/message-names-the-exception", test_message_names_the_exception);
  g_test_add_func ("/core/error/message-length-capped", test_message_length_capped);
  g_test_add_func ("/core/error/message-invalid-utf8", test_message_invalid_utf8);
  g_test_add_func ("/core/error/server-trace-absent", test_server_trace_absent);
  g_test_add_func ("/core/error/nothing-known", test_nothing_known);
  g_test_add_func ("/core/error/ignored-error-is-freed", test_ignored_error_is_freed);
  g_test_add_func ("/core/enum-types", test_enum_types);
  return g_test_run ();
}
