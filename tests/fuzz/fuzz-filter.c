/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-filter.c: the filter renderer (src/table/hbase-filter.c) on any
 * arguments: the input is a small program of a stack machine whose
 * instructions build filters from byte strings, numbers and operators, and
 * combine them (each filter is used once, so the rendering stays linear
 * in the input).  Every filter left is rendered.
 *
 * Checked: hbase_filter_to_bytes() and hbase_filter_to_string() agree
 * (the string is refused exactly when the bytes hold a NUL); a rendering
 * is well-formed filter language: every quoted literal is closed,
 * parentheses outside literals balance, and outside literals there are
 * only printable ASCII characters, so no argument can change the
 * structure of the expression (no injection).  A valid filter's tree
 * (what the native backend sends) serializes to a Filter message that
 * protobuf-c reads back, naming an HBase filter class. */
#include "config.h"

#include <string.h>

#include "fuzz-support.h"
#include "../../src/native/hbase-native-filter.h"
#include "../../src/table/hbase-filter-private.h"
#include "Filter.pb-c.h"

#define MAX_STACK 16
#define MAX_OPS 64

static void
check_rendering (const guint8 *text, gsize len)
{
  int depth = 0;
  gboolean quoted = FALSE;

  fuzz_assert (len > 0, "an empty rendering");
  for (gsize i = 0; i < len; i++)
    {
      guint8 c = text[i];

      if (quoted)
        {
          if (c == '\'')
            {
              if (i + 1 < len && text[i + 1] == '\'')
                i++;
              else
                quoted = FALSE;
            }
          continue;
        }
      fuzz_assert (c >= 0x20 && c < 0x7f, "byte 0x%02x at %zu outside a literal", c, i);
      if (c == '\'')
        quoted = TRUE;
      else if (c == '(')
        depth++;
      else if (c == ')')
        fuzz_assert (--depth >= 0, "an unbalanced ')' at %zu", i);
    }
  fuzz_assert (!quoted, "a literal is not closed");
  fuzz_assert (depth == 0, "%d parentheses are not closed", depth);
}

static void
render (HBaseFilter *filter)
{
  GError *error = NULL;
  g_autoptr(GBytes) bytes = hbase_filter_to_bytes (filter, &error);
  g_autofree char *text = NULL;
  GError *string_error = NULL;
  gsize len = 0;
  const guint8 *data;

  fuzz_check_outcome ("hbase_filter_to_bytes", bytes != NULL, &error);
  text = hbase_filter_to_string (filter, &string_error);
  if (bytes == NULL)
    {
      fuzz_assert (text == NULL, "to_string succeeded where to_bytes failed");
      fuzz_check_outcome ("hbase_filter_to_string", FALSE, &string_error);
      return;
    }
  data = g_bytes_get_data (bytes, &len);
  check_rendering (data, len);
  {
    g_autoptr(GBytes) message = _hbase_native_filter_serialize (_hbase_filter_get_tree (filter));
    Hbase__Pb__Filter *decoded = hbase__pb__filter__unpack (NULL, g_bytes_get_size (message),
                                                            g_bytes_get_data (message, NULL));

    fuzz_assert (decoded != NULL && g_str_has_prefix (decoded->name,
                                                      "org.apache.hadoop.hbase.filter."),
                 "the tree does not serialize to a Filter message");
    protobuf_c_message_free_unpacked (&decoded->base, NULL);
  }
  fuzz_check_outcome ("hbase_filter_to_string", text != NULL, &string_error);
  if (memchr (data, '\0', len) != NULL)
    fuzz_assert (text == NULL, "to_string passed a NUL byte");
  else
    fuzz_assert (text != NULL && strlen (text) == len && memcmp (text, data, len) == 0,
                 "to_string differs from to_bytes");
}

static HBaseCompareOp
take_op (FuzzInput *in)
{
  return (HBaseCompareOp) (fuzz_take_u8 (in) % 8);    /* one past the last: refused */
}

static HBaseComparator
take_comparator (FuzzInput *in)
{
  return (HBaseComparator) (fuzz_take_u8 (in) % 5);
}

static HBaseFilter *
take_leaf (FuzzInput *in, guint8 kind)
{
  g_autoptr(GBytes) a = fuzz_take_gbytes (in, 24);
  g_autoptr(GBytes) b = fuzz_take_gbytes (in, 24);
  g_autofree char *family = fuzz_take_string (in, 12);
  guint8 flags = fuzz_take_u8 (in);
  gint32 n = (gint32) fuzz_take_u32 (in);

  switch (kind % 20)
    {
    case 0: return hbase_filter_prefix (a);
    case 1: return hbase_filter_inclusive_stop (a);
    case 2: return hbase_filter_page ((gint64) n * (flags & 1 ? 1 : 1 << 20));
    case 3: return hbase_filter_row (take_op (in), take_comparator (in), a);
    case 4: return hbase_filter_family (take_op (in), take_comparator (in), a);
    case 5: return hbase_filter_qualifier (take_op (in), take_comparator (in), a);
    case 6: return hbase_filter_column_prefix (flags & 2 ? NULL : a);
    case 7:
      {
        GBytes *prefixes[3] = { a, b, flags & 4 ? NULL : a };

        return hbase_filter_multiple_column_prefix (prefixes, flags % 4);
      }
    case 8: return hbase_filter_column_range (flags & 1 ? a : NULL, flags & 2, flags & 4 ? b : NULL, flags & 8);
    case 9: return hbase_filter_column_pagination (n, (gint32) (flags - 128));
    case 10: return hbase_filter_column_count (n);
    case 11: return hbase_filter_key_only (flags & 1);
    case 12: return hbase_filter_first_key_only ();
    case 13:
      {
        gint64 stamps[4] = { n, -(gint64) flags, G_MAXINT64, G_MININT64 };

        return hbase_filter_timestamps (flags & 8 ? NULL : stamps, flags % 5);
      }
    case 14: return hbase_filter_value (take_op (in), take_comparator (in), a);
    case 15:
      return hbase_filter_single_column_value (flags & 16 ? NULL : family, b, take_op (in),
                                               take_comparator (in), a, flags & 1, flags & 2);
    case 16:
      return hbase_filter_single_column_value_exclude (family, flags & 16 ? NULL : b, take_op (in),
                                                       take_comparator (in), a, flags & 1, flags & 2);
    case 17: return hbase_filter_column_value (family, b, take_op (in), take_comparator (in), a);
    case 18: return hbase_filter_dependent_column (family, b, flags & 1);
    default:
      return hbase_filter_dependent_column_compare (family, b, flags & 1, take_op (in),
                                                    take_comparator (in), a);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  HBaseFilter *stack[MAX_STACK];
  guint depth = 0;

  fuzz_init ();
  for (guint op = 0; op < MAX_OPS && in.size > 0; op++)
    {
      guint8 code = fuzz_take_u8 (&in);
      HBaseFilter *made = NULL;

      switch (code >> 5)
        {
        case 0: case 1: case 2: case 3:      /* a leaf */
          if (depth < MAX_STACK)
            made = take_leaf (&in, code);
          break;
        case 4: case 5:                      /* AND / OR of the two on top */
          if (depth >= 2)
            {
              HBaseFilter *second = stack[--depth], *first = stack[--depth];

              made = code & 1 ? hbase_filter_or (first, second) : hbase_filter_and (first, second);
              hbase_filter_unref (first);
              hbase_filter_unref (second);
            }
          break;
        case 6:                              /* all / any of the top n (0 to 3) */
          {
            guint n = MIN (depth, (guint) (code & 3));

            depth -= n;
            made = code & 4 ? hbase_filter_any (stack + depth, n) : hbase_filter_all (stack + depth, n);
            for (guint i = 0; i < n; i++)
              hbase_filter_unref (stack[depth + i]);
          }
          break;
        default:                             /* SKIP / WHILE of the top, or of NULL */
          {
            HBaseFilter *operand = depth > 0 && !(code & 2) ? stack[--depth] : NULL;

            made = code & 1 ? hbase_filter_while (operand) : hbase_filter_skip (operand);
            if (operand != NULL)
              hbase_filter_unref (operand);
          }
          break;
        }
      if (made != NULL && depth < MAX_STACK)
        stack[depth++] = made;
      else if (made != NULL)
        {
          render (made);
          hbase_filter_unref (made);
        }
    }
  while (depth > 0)
    {
      HBaseFilter *filter = stack[--depth];

      render (filter);
      hbase_filter_unref (filter);
    }
  return 0;
}
