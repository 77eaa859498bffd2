/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-schema.h: composite row keys from typed fields, key ranges from
 * partial keys, salting. */
#ifndef HBASE_KEY_SCHEMA_H
#define HBASE_KEY_SCHEMA_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <string.h>

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseKeyFieldType:
 * @HBASE_KEY_FIELD_DECIMAL: an unsigned integer as @width ASCII digits,
 *   zero-padded ("000042"); @width is 1 to 20
 * @HBASE_KEY_FIELD_STRING: a byte string padded to @width bytes with the
 *   field's @pad byte.  Every byte of a value must be at least @pad and the
 *   value must not end with @pad, so that the padded form sorts as the
 *   value does and decodes back exactly
 * @HBASE_KEY_FIELD_UINT: an unsigned integer, @width bytes (1, 2, 4 or 8)
 *   big-endian
 * @HBASE_KEY_FIELD_INT: a signed integer, @width bytes (1, 2, 4 or 8)
 *   big-endian with the sign bit flipped, so negative numbers sort first
 * @HBASE_KEY_FIELD_DOUBLE: an IEEE 754 double, 8 bytes: positive numbers
 *   with the sign bit set, negative ones with every bit flipped; sorts
 *   -inf < negative < -0.0 < +0.0 < positive < +inf < NaN (every NaN is
 *   stored as one canonical quiet NaN)
 * @HBASE_KEY_FIELD_REVERSE_TIMESTAMP: a non-negative 64-bit integer
 *   (a timestamp) stored as G_MAXINT64 minus it, 8 bytes big-endian, so the
 *   newest sorts first (the HBase book's reverse timestamp)
 * @HBASE_KEY_FIELD_BYTES: bytes of any length and content: each 0x00 is
 *   written as 0x00 0xFF and the field ends with 0x00 0x01, so a field
 *   never is a prefix of another and following fields do not disturb the
 *   order
 *
 * How a field of a composite key is written.  Every encoding is
 * order-preserving: comparing encoded keys byte by byte (as HBase does)
 * gives the order of the values, field after field.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_KEY_FIELD_DECIMAL,
  HBASE_KEY_FIELD_STRING,
  HBASE_KEY_FIELD_UINT,
  HBASE_KEY_FIELD_INT,
  HBASE_KEY_FIELD_DOUBLE,
  HBASE_KEY_FIELD_REVERSE_TIMESTAMP,
  HBASE_KEY_FIELD_BYTES,
} HBaseKeyFieldType;

/**
 * HBaseKeyField:
 * @name: the field's name (unique within a schema)
 * @type: how it is written
 * @width: digits of a %HBASE_KEY_FIELD_DECIMAL, bytes of a
 *   %HBASE_KEY_FIELD_STRING, %HBASE_KEY_FIELD_UINT or %HBASE_KEY_FIELD_INT;
 *   0 for the other types
 * @pad: the pad byte of a %HBASE_KEY_FIELD_STRING (0x00 sorts shorter
 *   strings first whatever their bytes; ' ' suits printable text)
 * @descending: store the field inverted (every byte complemented) so that
 *   it sorts from high to low
 *
 * One field of a composite key, declared in key order.  Initialise with
 * %HBASE_KEY_FIELD_INIT or as a literal.
 *
 * Since: 0.1
 */
typedef struct {
  const char *name;
  HBaseKeyFieldType type;
  guint width;
  guint8 pad;
  gboolean descending;
} HBaseKeyField;

#define HBASE_KEY_FIELD_INIT { NULL, HBASE_KEY_FIELD_BYTES, 0, 0, FALSE }

#define HBASE_TYPE_KEY_FIELD (hbase_key_field_get_type ())
GType          hbase_key_field_get_type (void) G_GNUC_CONST;
HBaseKeyField *hbase_key_field_new      (const char          *name,
                                         HBaseKeyFieldType    type,
                                         guint                width);
HBaseKeyField *hbase_key_field_copy     (const HBaseKeyField *field);
void           hbase_key_field_free     (HBaseKeyField       *field);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeyField, hbase_key_field_free)

/**
 * HBaseKeyValueKind:
 * @HBASE_KEY_VALUE_UINT: @v.u holds an unsigned integer
 * @HBASE_KEY_VALUE_INT: @v.i holds a signed integer
 * @HBASE_KEY_VALUE_DOUBLE: @v.d holds a double
 * @HBASE_KEY_VALUE_BYTES: @v.b holds bytes (@data, @size)
 *
 * What an #HBaseKeyValue holds.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_KEY_VALUE_UINT = 1,
  HBASE_KEY_VALUE_INT,
  HBASE_KEY_VALUE_DOUBLE,
  HBASE_KEY_VALUE_BYTES,
} HBaseKeyValueKind;

/**
 * HBaseKeyValue:
 * @kind: what @v holds
 * @v: the value, in the member @kind names: `u` (uint), `i` (int), `d`
 *   (double) or `b` (bytes: `data`, borrowed, not copied nor freed, and
 *   its `size`)
 *
 * The value of one key field, as given to the encoders.  Integer fields
 * (decimal, uint, int, reverse timestamp) take either integer kind as long
 * as the number fits; string and bytes fields take bytes; double fields
 * take doubles.  Build with HBASE_KEY_UINT(), HBASE_KEY_INT(),
 * HBASE_KEY_DOUBLE(), HBASE_KEY_STRING() or HBASE_KEY_BYTES().
 *
 * Since: 0.1
 */
typedef struct {
  HBaseKeyValueKind kind;
  union {
    guint64 u;
    gint64 i;
    double d;
    struct {
      gconstpointer data;
      gsize size;
    } b;
  } v;
} HBaseKeyValue;

/**
 * HBASE_KEY_UINT:
 * @x: an unsigned integer
 *
 * An #HBaseKeyValue holding @x (a compound literal).
 *
 * Since: 0.1
 */
/**
 * HBASE_KEY_INT:
 * @x: a signed integer
 *
 * An #HBaseKeyValue holding @x.
 *
 * Since: 0.1
 */
/**
 * HBASE_KEY_DOUBLE:
 * @x: a double
 *
 * An #HBaseKeyValue holding @x.
 *
 * Since: 0.1
 */
/**
 * HBASE_KEY_BYTES:
 * @data_: the bytes (borrowed)
 * @size_: how many
 *
 * An #HBaseKeyValue holding bytes.
 *
 * Since: 0.1
 */
/**
 * HBASE_KEY_STRING:
 * @text: a NUL-terminated string (borrowed)
 *
 * An #HBaseKeyValue holding the bytes of @text, without its NUL.
 *
 * Since: 0.1
 */
#define HBASE_KEY_UINT(x) ((HBaseKeyValue) { HBASE_KEY_VALUE_UINT, { .u = (guint64) (x) } })
#define HBASE_KEY_INT(x) ((HBaseKeyValue) { HBASE_KEY_VALUE_INT, { .i = (gint64) (x) } })
#define HBASE_KEY_DOUBLE(x) ((HBaseKeyValue) { HBASE_KEY_VALUE_DOUBLE, { .d = (double) (x) } })
#define HBASE_KEY_BYTES(data_, size_) \
  ((HBaseKeyValue) { HBASE_KEY_VALUE_BYTES, { .b = { (data_), (size_) } } })
#define HBASE_KEY_STRING(text) HBASE_KEY_BYTES ((text), strlen (text))

#define HBASE_TYPE_KEY_VALUE (hbase_key_value_get_type ())
GType          hbase_key_value_get_type (void) G_GNUC_CONST;
HBaseKeyValue *hbase_key_value_new_uint   (guint64              value);
HBaseKeyValue *hbase_key_value_new_int    (gint64               value);
HBaseKeyValue *hbase_key_value_new_double (double               value);
HBaseKeyValue *hbase_key_value_new_bytes  (GBytes              *bytes);
HBaseKeyValue *hbase_key_value_copy     (const HBaseKeyValue *value);
void           hbase_key_value_free     (HBaseKeyValue       *value);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeyValue, hbase_key_value_free)

/**
 * HBaseSaltHash:
 * @HBASE_SALT_HASH_MURMUR3: MurmurHash3 x86 32-bit, initial hash value 0, of the encoded
 *   hashed fields, taken as unsigned, modulo the buckets
 * @HBASE_SALT_HASH_PHOENIX: Apache Phoenix's salt byte
 *   (SaltingUtil.getSaltingByte): h = 1, then h = 31 * h + b for each byte b
 *   taken as a signed Java byte, in 32-bit two's complement; the bucket is
 *   abs(h % buckets).  With every field hashed (the default) it is the
 *   salt byte Phoenix gives a row whose unsalted key has the same bytes
 *
 * How the bucket of a key is computed from its hashed fields.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_SALT_HASH_MURMUR3,
  HBASE_SALT_HASH_PHOENIX,
} HBaseSaltHash;

/**
 * HBaseKeyPeriodFunc:
 * @field: the period field
 * @value: its value
 * @user_data: the salt options' @period_data
 *
 * The time period (0 to n_periods - 1) of a key whose period field has
 * @value, for time-aligned buckets.
 *
 * Returns: the period, or G_MAXUINT when @value has none (the key is then
 *   refused with %HBASE_ERROR_ILLEGAL_ARGUMENT)
 *
 * Since: 0.1
 */
typedef guint (*HBaseKeyPeriodFunc) (const HBaseKeyField *field,
                                     const HBaseKeyValue *value,
                                     gpointer             user_data);

guint hbase_key_period_month (const HBaseKeyField *field,
                              const HBaseKeyValue *value,
                              gpointer             user_data);

/**
 * HBaseSaltOptions:
 * @n_buckets: buckets, 1 to 256; each key starts with one byte, its bucket
 * @hash: the hash that picks a bucket
 * @hash_fields: (nullable) (array zero-terminated=1): names of the fields
 *   hashed, in any order (they are hashed in key order, encoded); %NULL for
 *   every field
 * @period_field: (nullable): for time-aligned buckets, the field
 *   whose value gives the period; %NULL for none
 * @n_periods: periods; the buckets are split into @n_periods equal runs
 *   (@n_buckets must be a multiple of it): period p owns buckets
 *   p * n_buckets / n_periods and up, and a key's hash picks one of them
 * @period_func: (nullable): the period of a value; %NULL for
 *   hbase_key_period_month() (then @n_periods must be 12)
 * @period_data: passed to @period_func; must outlive the schema
 * @period_data_destroy: (nullable): frees @period_data when options from
 *   hbase_salt_options_new() are freed or given another period function
 *   (see hbase_salt_options_set_period_func()); %NULL in stack structs
 *
 * Salting of a key schema: the row key is one bucket byte followed by the
 * encoded fields, so that writes spread over @n_buckets pre-split regions.
 * Point operations compute the bucket; range scans fan out over the
 * buckets that can hold the range and merge them (#HBaseKeyScanner).
 * Initialise with %HBASE_SALT_OPTIONS_INIT, or allocate with
 * hbase_salt_options_new().  Who owns the pointers (a struct from
 * hbase_salt_options_new() owns what its setters stored, a struct on the
 * stack borrows them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  guint n_buckets;
  HBaseSaltHash hash;
  const char *const *hash_fields;
  const char *period_field;
  guint n_periods;
  HBaseKeyPeriodFunc period_func;
  gpointer period_data;
  GDestroyNotify period_data_destroy;
  /*< private >*/
  gpointer padding[8];
} HBaseSaltOptions;

#define HBASE_SALT_OPTIONS_INIT { .n_buckets = 0, .hash = HBASE_SALT_HASH_MURMUR3 }

#define HBASE_TYPE_SALT_OPTIONS (hbase_salt_options_get_type ())
GType             hbase_salt_options_get_type         (void) G_GNUC_CONST;
HBaseSaltOptions *hbase_salt_options_new              (void);
HBaseSaltOptions *hbase_salt_options_copy             (const HBaseSaltOptions *options);
void              hbase_salt_options_free             (HBaseSaltOptions       *options);
void              hbase_salt_options_set_hash_fields  (HBaseSaltOptions       *options,
                                                       const char *const      *hash_fields);
void              hbase_salt_options_set_period_field (HBaseSaltOptions       *options,
                                                       const char             *period_field);
void              hbase_salt_options_set_period_func  (HBaseSaltOptions       *options,
                                                       HBaseKeyPeriodFunc      period_func,
                                                       gpointer                period_data,
                                                       GDestroyNotify          destroy);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseSaltOptions, hbase_salt_options_free)

/**
 * HBaseKeySchema:
 *
 * The layout of a composite row key: typed fields in order, optionally
 * salted.  Immutable and reference-counted, so it can be shared between
 * threads.
 *
 * Since: 0.1
 */
typedef struct _HBaseKeySchema HBaseKeySchema;

#define HBASE_TYPE_KEY_SCHEMA (hbase_key_schema_get_type ())
GType                hbase_key_schema_get_type      (void) G_GNUC_CONST;

HBaseKeySchema      *hbase_key_schema_new           (const HBaseKeyField    *fields,
                                                     guint                   n_fields,
                                                     const HBaseSaltOptions *salt,
                                                     GError                **error);
HBaseKeySchema      *hbase_key_schema_ref           (HBaseKeySchema         *schema);
void                 hbase_key_schema_unref         (HBaseKeySchema         *schema);

guint                hbase_key_schema_get_n_fields  (HBaseKeySchema         *schema);
const HBaseKeyField *hbase_key_schema_get_field     (HBaseKeySchema         *schema,
                                                     guint                   index);
int                  hbase_key_schema_find_field    (HBaseKeySchema         *schema,
                                                     const char             *name);
guint                hbase_key_schema_get_n_buckets (HBaseKeySchema         *schema);

/* encoding and decoding */
GBytes              *hbase_key_schema_encode        (HBaseKeySchema         *schema,
                                                     const HBaseKeyValue    *values,
                                                     guint                   n_values,
                                                     GError                **error);
gboolean             hbase_key_schema_encode_into   (HBaseKeySchema         *schema,
                                                     GByteArray             *out,
                                                     const HBaseKeyValue    *values,
                                                     guint                   n_values,
                                                     GError                **error);
GBytes              *hbase_key_schema_encode_prefix (HBaseKeySchema         *schema,
                                                     const HBaseKeyValue    *values,
                                                     guint                   n_values,
                                                     GError                **error);
GBytes              *hbase_key_schema_encode_variant (HBaseKeySchema        *schema,
                                                     GVariant               *tuple,
                                                     GError                **error);
GVariant            *hbase_key_schema_decode        (HBaseKeySchema         *schema,
                                                     GBytes                 *row,
                                                     GError                **error);
gboolean             hbase_key_schema_decode_values (HBaseKeySchema         *schema,
                                                     GBytes                 *row,
                                                     HBaseKeyValue          *values,
                                                     guint                   n_values,
                                                     GByteArray             *storage,
                                                     GError                **error);
gboolean             hbase_key_schema_get_bucket    (HBaseKeySchema         *schema,
                                                     const HBaseKeyValue    *values,
                                                     guint                   n_values,
                                                     guint                  *bucket,
                                                     GError                **error);

/**
 * HBaseKeyRange:
 * @equal: (array length=n_equal) (nullable): values of the leading fields,
 *   which the keys must equal
 * @n_equal: how many leading fields are fixed
 * @lower: (nullable): the lowest value of the next field; %NULL for no
 *   lower bound
 * @lower_inclusive: whether keys whose next field equals @lower are in
 * @upper: (nullable): the highest value of the next field; %NULL for no
 *   upper bound
 * @upper_inclusive: whether keys whose next field equals @upper are in
 *
 * The keys whose first @n_equal fields equal @equal and whose next field
 * lies between @lower and @upper (in the order of the values, whatever the
 * field's direction).  Initialise with %HBASE_KEY_RANGE_INIT.
 *
 * Since: 0.1
 */
typedef struct {
  const HBaseKeyValue *equal;
  guint n_equal;
  const HBaseKeyValue *lower;
  gboolean lower_inclusive;
  const HBaseKeyValue *upper;
  gboolean upper_inclusive;
} HBaseKeyRange;

#define HBASE_KEY_RANGE_INIT { NULL, 0, NULL, FALSE, NULL, FALSE }

#define HBASE_TYPE_KEY_RANGE (hbase_key_range_get_type ())
GType          hbase_key_range_get_type (void) G_GNUC_CONST;
HBaseKeyRange *hbase_key_range_new      (HBaseKeyValue *const *equal,
                                         guint                n_equal,
                                         const HBaseKeyValue *lower,
                                         gboolean             lower_inclusive,
                                         const HBaseKeyValue *upper,
                                         gboolean             upper_inclusive);
HBaseKeyRange *hbase_key_range_copy     (const HBaseKeyRange *range);
void           hbase_key_range_free     (HBaseKeyRange       *range);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeyRange, hbase_key_range_free)

gboolean             hbase_key_schema_get_row_range (HBaseKeySchema         *schema,
                                                     const HBaseKeyRange    *range,
                                                     GBytes                **start_row,
                                                     GBytes                **stop_row,
                                                     GError                **error);
GArray              *hbase_key_schema_get_range_buckets (HBaseKeySchema     *schema,
                                                     const HBaseKeyRange    *range,
                                                     GError                **error);
GPtrArray           *hbase_key_schema_get_split_keys (HBaseKeySchema        *schema);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseKeySchema, hbase_key_schema_unref)

G_END_DECLS

#endif /* HBASE_KEY_SCHEMA_H */
