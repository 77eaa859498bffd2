/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-filter.c: filter trees (hbase-native-filter.h) and their
 * FilterProtos form, the Filter message of a native Get or Scan.
 *
 * Each node becomes the message HBase's own filter class writes in
 * toByteArray() for the filter that ParseFilter (the gateway's filter
 * language parser) builds from the same filter's rendering, so that both
 * backends run the very same filter on the server:
 *  - a comparison: CompareFilter { compare_op, comparator }, comparators
 *    as ParseFilter.createComparator() makes them (RegexStringComparator
 *    with Pattern.DOTALL, charset UTF-8, the Java engine);
 *  - ColumnRangeFilter: an empty bound is no bound;
 *  - TimestampsFilter: can_hint false (the list constructor's);
 *  - DependentColumnFilter without a comparison: NO_OP and no comparator;
 *  - SingleColumnValueFilter: family, qualifier and both flags always set;
 *  - "A AND B AND C" is one FilterList of three, an operand that is
 *    itself a group a FilterList of its own.
 */
#include "config.h"

#include <hbase-glib/hbase-error.h>

#include "hbase-native-filter.h"
#include "hbase-native-pb.h"
#include "Comparator.pb-c.h"
#include "Filter.pb-c.h"

#define CLASS(name) "org.apache.hadoop.hbase.filter." name

/* java.util.regex.Pattern.DOTALL */
#define PATTERN_DOTALL 32

HBaseNativeFilter *
_hbase_native_filter_new (HBaseNativeFilterKind kind)
{
  HBaseNativeFilter *filter = g_new0 (HBaseNativeFilter, 1);

  g_atomic_ref_count_init (&filter->ref_count);
  filter->kind = kind;
  filter->compare_op = HBASE_NATIVE_COMPARE_NO_OP;
  return filter;
}

HBaseNativeFilter *
_hbase_native_filter_ref (HBaseNativeFilter *filter)
{
  g_atomic_ref_count_inc (&filter->ref_count);
  return filter;
}

void
_hbase_native_filter_unref (HBaseNativeFilter *filter)
{
  if (filter == NULL || !g_atomic_ref_count_dec (&filter->ref_count))
    return;
  g_clear_pointer (&filter->bytes, g_bytes_unref);
  g_clear_pointer (&filter->bytes2, g_bytes_unref);
  g_clear_pointer (&filter->list, g_ptr_array_unref);
  g_clear_pointer (&filter->timestamps, g_array_unref);
  g_clear_pointer (&filter->family, g_bytes_unref);
  g_clear_pointer (&filter->qualifier, g_bytes_unref);
  g_clear_pointer (&filter->value, g_bytes_unref);
  g_clear_pointer (&filter->children, g_ptr_array_unref);
  g_free (filter);
}

static GBytes *
pack (const ProtobufCMessage *message)
{
  gsize size = protobuf_c_message_get_packed_size (message);
  guint8 *data = g_malloc (size > 0 ? size : 1);

  protobuf_c_message_pack (message, data);
  return g_bytes_new_take (data, size);
}

static void
set_bytes (protobuf_c_boolean *has, ProtobufCBinaryData *out, GBytes *bytes)
{
  if (has != NULL)
    *has = TRUE;
  _hbase_native_pb_set_bytes (out, bytes);
}

/* A Comparator message and what it points to. */
typedef struct
{
  Hbase__Pb__Comparator message;
  GBytes *serialized;
} ComparatorParts;

static void
comparator_init (ComparatorParts *parts, const HBaseNativeFilter *filter)
{
  Hbase__Pb__ByteArrayComparable comparable = HBASE__PB__BYTE_ARRAY_COMPARABLE__INIT;
  Hbase__Pb__BinaryComparator binary = HBASE__PB__BINARY_COMPARATOR__INIT;
  Hbase__Pb__BinaryPrefixComparator prefix = HBASE__PB__BINARY_PREFIX_COMPARATOR__INIT;
  Hbase__Pb__RegexStringComparator regex = HBASE__PB__REGEX_STRING_COMPARATOR__INIT;
  Hbase__Pb__SubstringComparator substring = HBASE__PB__SUBSTRING_COMPARATOR__INIT;
  gsize len = 0;
  const char *data = filter->value != NULL ? g_bytes_get_data (filter->value, &len) : NULL;
  g_autofree char *text = g_strndup (data != NULL ? data : "", len);

  hbase__pb__comparator__init (&parts->message);
  set_bytes (&comparable.has_value, &comparable.value, filter->value);
  switch (filter->comparator)
    {
    case HBASE_NATIVE_COMPARATOR_BINARY_PREFIX:
      prefix.comparable = &comparable;
      parts->message.name = (char *) CLASS ("BinaryPrefixComparator");
      parts->serialized = pack (&prefix.base);
      break;
    case HBASE_NATIVE_COMPARATOR_REGEX_STRING:
      regex.pattern = text;
      regex.pattern_flags = PATTERN_DOTALL;
      regex.charset = (char *) "UTF-8";
      regex.engine = (char *) "JAVA";
      parts->message.name = (char *) CLASS ("RegexStringComparator");
      parts->serialized = pack (&regex.base);
      break;
    case HBASE_NATIVE_COMPARATOR_SUBSTRING:
      /* the server lowercases it (SubstringComparator's constructor) */
      substring.substr = text;
      parts->message.name = (char *) CLASS ("SubstringComparator");
      parts->serialized = pack (&substring.base);
      break;
    case HBASE_NATIVE_COMPARATOR_BINARY:
    default:
      binary.comparable = &comparable;
      parts->message.name = (char *) CLASS ("BinaryComparator");
      parts->serialized = pack (&binary.base);
      break;
    }
  set_bytes (&parts->message.has_serialized_comparator, &parts->message.serialized_comparator,
             parts->serialized);
}

static void
comparator_clear (ComparatorParts *parts)
{
  g_clear_pointer (&parts->serialized, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ComparatorParts, comparator_clear)

/* A Filter message of a child and what it points to. */
typedef struct
{
  Hbase__Pb__Filter message;
  GBytes *serialized;
} FilterParts;

static GBytes *serialize_inner (const HBaseNativeFilter *filter, const char **name);

static void
filter_parts_init (FilterParts *parts, const HBaseNativeFilter *filter)
{
  const char *name = NULL;

  hbase__pb__filter__init (&parts->message);
  parts->serialized = serialize_inner (filter, &name);
  parts->message.name = (char *) name;
  set_bytes (&parts->message.has_serialized_filter, &parts->message.serialized_filter,
             parts->serialized);
}

static void
filter_parts_clear (FilterParts *parts)
{
  g_clear_pointer (&parts->serialized, g_bytes_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FilterParts, filter_parts_clear)

/* The message of a compare filter (RowFilter, FamilyFilter,
 * QualifierFilter, ValueFilter: one field, compare_filter). */
static GBytes *
compare_filter (const HBaseNativeFilter *filter, const ProtobufCMessageDescriptor *descriptor)
{
  Hbase__Pb__CompareFilter compare = HBASE__PB__COMPARE_FILTER__INIT;
  g_auto(ComparatorParts) comparator = { 0 };
  Hbase__Pb__RowFilter outer;   /* the four have the same layout */

  G_STATIC_ASSERT (sizeof (Hbase__Pb__RowFilter) == sizeof (Hbase__Pb__ValueFilter));
  comparator_init (&comparator, filter);
  compare.compare_op = (Hbase__Pb__CompareType) filter->compare_op;
  compare.comparator = &comparator.message;
  protobuf_c_message_init (descriptor, &outer);
  outer.compare_filter = &compare;
  return pack (&outer.base);
}

static void
single_column_init (Hbase__Pb__SingleColumnValueFilter *scv, const HBaseNativeFilter *filter,
                    ComparatorParts *comparator)
{
  hbase__pb__single_column_value_filter__init (scv);
  comparator_init (comparator, filter);
  set_bytes (&scv->has_column_family, &scv->column_family, filter->family);
  set_bytes (&scv->has_column_qualifier, &scv->column_qualifier, filter->qualifier);
  scv->compare_op = (Hbase__Pb__CompareType) filter->compare_op;
  scv->comparator = &comparator->message;
  scv->has_filter_if_missing = TRUE;
  scv->filter_if_missing = filter->flag;
  scv->has_latest_version_only = TRUE;
  scv->latest_version_only = filter->flag2;
}

static GBytes *
filter_list (const HBaseNativeFilter *filter)
{
  Hbase__Pb__FilterList list = HBASE__PB__FILTER_LIST__INIT;
  guint n = filter->children != NULL ? filter->children->len : 0;
  g_autofree FilterParts *parts = g_new0 (FilterParts, MAX (n, 1));
  g_autofree Hbase__Pb__Filter **pointers = g_new0 (Hbase__Pb__Filter *, MAX (n, 1));
  GBytes *packed;

  list.operator_ = filter->kind == HBASE_NATIVE_FILTER_LIST_ONE
    ? HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ONE
    : HBASE__PB__FILTER_LIST__OPERATOR__MUST_PASS_ALL;
  for (guint i = 0; i < n; i++)
    {
      filter_parts_init (&parts[i], filter->children->pdata[i]);
      pointers[i] = &parts[i].message;
    }
  list.n_filters = n;
  list.filters = pointers;
  packed = pack (&list.base);
  for (guint i = 0; i < n; i++)
    filter_parts_clear (&parts[i]);
  return packed;
}

/* SkipFilter and WhileMatchFilter: one field, filter. */
static GBytes *
wrapper (const HBaseNativeFilter *filter, const ProtobufCMessageDescriptor *descriptor)
{
  g_auto(FilterParts) child = { 0 };
  Hbase__Pb__SkipFilter outer;   /* WhileMatchFilter has the same layout */

  G_STATIC_ASSERT (sizeof (Hbase__Pb__SkipFilter) == sizeof (Hbase__Pb__WhileMatchFilter));
  filter_parts_init (&child, filter->children->pdata[0]);
  protobuf_c_message_init (descriptor, &outer);
  outer.filter = &child.message;
  return pack (&outer.base);
}

/* The serialized message of @filter's class, and the class's name. */
static GBytes *
serialize_inner (const HBaseNativeFilter *filter, const char **name)
{
  switch (filter->kind)
    {
    case HBASE_NATIVE_FILTER_PREFIX:
      {
        Hbase__Pb__PrefixFilter m = HBASE__PB__PREFIX_FILTER__INIT;

        *name = CLASS ("PrefixFilter");
        set_bytes (&m.has_prefix, &m.prefix, filter->bytes);
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_INCLUSIVE_STOP:
      {
        Hbase__Pb__InclusiveStopFilter m = HBASE__PB__INCLUSIVE_STOP_FILTER__INIT;

        *name = CLASS ("InclusiveStopFilter");
        set_bytes (&m.has_stop_row_key, &m.stop_row_key, filter->bytes);
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_PAGE:
      {
        Hbase__Pb__PageFilter m = HBASE__PB__PAGE_FILTER__INIT;

        *name = CLASS ("PageFilter");
        m.page_size = filter->number;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_ROW:
      *name = CLASS ("RowFilter");
      return compare_filter (filter, &hbase__pb__row_filter__descriptor);
    case HBASE_NATIVE_FILTER_FAMILY:
      *name = CLASS ("FamilyFilter");
      return compare_filter (filter, &hbase__pb__family_filter__descriptor);
    case HBASE_NATIVE_FILTER_QUALIFIER:
      *name = CLASS ("QualifierFilter");
      return compare_filter (filter, &hbase__pb__qualifier_filter__descriptor);
    case HBASE_NATIVE_FILTER_VALUE:
      *name = CLASS ("ValueFilter");
      return compare_filter (filter, &hbase__pb__value_filter__descriptor);
    case HBASE_NATIVE_FILTER_COLUMN_PREFIX:
      {
        Hbase__Pb__ColumnPrefixFilter m = HBASE__PB__COLUMN_PREFIX_FILTER__INIT;

        *name = CLASS ("ColumnPrefixFilter");
        set_bytes (NULL, &m.prefix, filter->bytes);
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_MULTIPLE_COLUMN_PREFIX:
      {
        Hbase__Pb__MultipleColumnPrefixFilter m = HBASE__PB__MULTIPLE_COLUMN_PREFIX_FILTER__INIT;
        guint n = filter->list != NULL ? filter->list->len : 0;
        g_autofree ProtobufCBinaryData *prefixes = g_new0 (ProtobufCBinaryData, MAX (n, 1));

        *name = CLASS ("MultipleColumnPrefixFilter");
        /* the server sorts them (and drops duplicates) */
        for (guint i = 0; i < n; i++)
          set_bytes (NULL, &prefixes[i], filter->list->pdata[i]);
        m.n_sorted_prefixes = n;
        m.sorted_prefixes = prefixes;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_COLUMN_RANGE:
      {
        Hbase__Pb__ColumnRangeFilter m = HBASE__PB__COLUMN_RANGE_FILTER__INIT;

        *name = CLASS ("ColumnRangeFilter");
        if (filter->bytes != NULL && g_bytes_get_size (filter->bytes) > 0)
          set_bytes (&m.has_min_column, &m.min_column, filter->bytes);
        m.has_min_column_inclusive = TRUE;
        m.min_column_inclusive = filter->flag;
        if (filter->bytes2 != NULL && g_bytes_get_size (filter->bytes2) > 0)
          set_bytes (&m.has_max_column, &m.max_column, filter->bytes2);
        m.has_max_column_inclusive = TRUE;
        m.max_column_inclusive = filter->flag2;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_COLUMN_PAGINATION:
      {
        Hbase__Pb__ColumnPaginationFilter m = HBASE__PB__COLUMN_PAGINATION_FILTER__INIT;

        *name = CLASS ("ColumnPaginationFilter");
        m.limit = (int32_t) filter->number;
        m.has_offset = TRUE;
        m.offset = (int32_t) filter->number2;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_COLUMN_COUNT_GET:
      {
        Hbase__Pb__ColumnCountGetFilter m = HBASE__PB__COLUMN_COUNT_GET_FILTER__INIT;

        *name = CLASS ("ColumnCountGetFilter");
        m.limit = (int32_t) filter->number;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_KEY_ONLY:
      {
        Hbase__Pb__KeyOnlyFilter m = HBASE__PB__KEY_ONLY_FILTER__INIT;

        *name = CLASS ("KeyOnlyFilter");
        m.len_as_val = filter->flag;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_FIRST_KEY_ONLY:
      {
        Hbase__Pb__FirstKeyOnlyFilter m = HBASE__PB__FIRST_KEY_ONLY_FILTER__INIT;

        *name = CLASS ("FirstKeyOnlyFilter");
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_TIMESTAMPS:
      {
        Hbase__Pb__TimestampsFilter m = HBASE__PB__TIMESTAMPS_FILTER__INIT;

        *name = CLASS ("TimestampsFilter");
        if (filter->timestamps != NULL)
          {
            m.n_timestamps = filter->timestamps->len;
            m.timestamps = (int64_t *) (gpointer) filter->timestamps->data;
          }
        m.has_can_hint = TRUE;
        m.can_hint = FALSE;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE:
      {
        Hbase__Pb__SingleColumnValueFilter m;
        g_auto(ComparatorParts) comparator = { 0 };

        *name = CLASS ("SingleColumnValueFilter");
        single_column_init (&m, filter, &comparator);
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_SINGLE_COLUMN_VALUE_EXCLUDE:
      {
        Hbase__Pb__SingleColumnValueExcludeFilter m =
          HBASE__PB__SINGLE_COLUMN_VALUE_EXCLUDE_FILTER__INIT;
        Hbase__Pb__SingleColumnValueFilter scv;
        g_auto(ComparatorParts) comparator = { 0 };

        *name = CLASS ("SingleColumnValueExcludeFilter");
        single_column_init (&scv, filter, &comparator);
        m.single_column_value_filter = &scv;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_COLUMN_VALUE:
      {
        Hbase__Pb__ColumnValueFilter m = HBASE__PB__COLUMN_VALUE_FILTER__INIT;
        g_auto(ComparatorParts) comparator = { 0 };

        *name = CLASS ("ColumnValueFilter");
        comparator_init (&comparator, filter);
        set_bytes (NULL, &m.family, filter->family);
        set_bytes (NULL, &m.qualifier, filter->qualifier);
        m.compare_op = (Hbase__Pb__CompareType) filter->compare_op;
        m.comparator = &comparator.message;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_DEPENDENT_COLUMN:
      {
        Hbase__Pb__DependentColumnFilter m = HBASE__PB__DEPENDENT_COLUMN_FILTER__INIT;
        Hbase__Pb__CompareFilter compare = HBASE__PB__COMPARE_FILTER__INIT;
        g_auto(ComparatorParts) comparator = { 0 };

        *name = CLASS ("DependentColumnFilter");
        compare.compare_op = (Hbase__Pb__CompareType) filter->compare_op;
        if (filter->compare_op != HBASE_NATIVE_COMPARE_NO_OP)
          {
            comparator_init (&comparator, filter);
            compare.comparator = &comparator.message;
          }
        m.compare_filter = &compare;
        set_bytes (&m.has_column_family, &m.column_family, filter->family);
        set_bytes (&m.has_column_qualifier, &m.column_qualifier, filter->qualifier);
        m.has_drop_dependent_column = TRUE;
        m.drop_dependent_column = filter->flag;
        return pack (&m.base);
      }
    case HBASE_NATIVE_FILTER_LIST_ALL:
    case HBASE_NATIVE_FILTER_LIST_ONE:
      *name = CLASS ("FilterList");
      return filter_list (filter);
    case HBASE_NATIVE_FILTER_SKIP:
      *name = CLASS ("SkipFilter");
      return wrapper (filter, &hbase__pb__skip_filter__descriptor);
    case HBASE_NATIVE_FILTER_WHILE_MATCH:
    default:
      *name = CLASS ("WhileMatchFilter");
      return wrapper (filter, &hbase__pb__while_match_filter__descriptor);
    }
}

GBytes *
_hbase_native_filter_serialize (const HBaseNativeFilter *filter)
{
  g_auto(FilterParts) parts = { 0 };

  filter_parts_init (&parts, filter);
  return pack (&parts.message.base);
}

/* Get.filter from a serialized Filter message (NULL: none), to free with
 * protobuf_c_message_free_unpacked(); FALSE when it does not parse. */
gboolean
_hbase_native_pb_filter (GBytes *filter, Hbase__Pb__Filter **out, GError **error)
{
  *out = NULL;
  if (filter == NULL)
    return TRUE;
  *out = hbase__pb__filter__unpack (NULL, g_bytes_get_size (filter),
                                    g_bytes_get_data (filter, NULL));
  if (*out == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "the filter is not a serialized Filter message");
      return FALSE;
    }
  return TRUE;
}
