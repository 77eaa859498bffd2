/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation-fields.h (private): what an HBaseMutation holds, for the
 * two files that build it (hbase-mutation.c) and turn it into Thrift
 * structs (hbase-mutation-thrift.c).  Everything else goes through
 * hbase-mutation.h and hbase-mutation-private.h. */
#ifndef HBASE_MUTATION_FIELDS_H
#define HBASE_MUTATION_FIELDS_H

#include <hbase-glib/hbase-mutation.h>

G_BEGIN_DECLS

/* No timestamp given: the server's clock (or the mutation's timestamp). */
#define NO_TIMESTAMP (-1)

typedef enum {
  ENTRY_PUT,
  ENTRY_DELETE_FAMILY,    /* DELETE_FAMILY */
  ENTRY_DELETE_COLUMN,    /* DELETE_COLUMNS: every version */
  ENTRY_DELETE_VERSION,   /* DELETE_COLUMN: one version */
  ENTRY_INCREMENT,
  ENTRY_APPEND,
} EntryKind;

typedef struct {
  EntryKind kind;
  GBytes *family;
  GBytes *qualifier;      /* never NULL; may be empty */
  GBytes *value;          /* puts and appends only */
  gint64 timestamp;       /* or NO_TIMESTAMP */
  gint64 amount;          /* increments only */
} Entry;

struct _HBaseMutation {
  gatomicrefcount ref_count;
  HBaseMutationKind kind;
  GBytes *row;            /* NULL when created without one */
  GArray *entries;        /* Entry */
  gint64 timestamp;       /* or NO_TIMESTAMP */
  HBaseDurability durability;
  char *problem;          /* the first bad builder call, or NULL */
};

G_END_DECLS

#endif /* HBASE_MUTATION_FIELDS_H */
