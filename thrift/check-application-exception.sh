#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check-application-exception.sh ORIGINAL PATCHED: fails, saying why,
# unless thrift/fix-application-exception.sed changed the generated
# service code ORIGINAL into PATCHED completely: the generator's output
# had what the script rewrites, and none of it is left.
original=$1 patched=$2
fail() {
  echo "thrift/fix-application-exception.sed: $1 ($patched): the Thrift compiler's output changed; see thrift/fix-application-exception.sed" >&2
  exit 1
}
grep -q 'THRIFT_TYPE_APPLICATION_EXCEPTION' "$original" ||
  fail "the generated code creates no THRIFT_TYPE_APPLICATION_EXCEPTION"
grep -q 'thrift_struct_read (THRIFT_STRUCT (xception), protocol, NULL);' "$original" ||
  fail "the generated code reads no exception reply with thrift_struct_read (..., NULL)"
grep -q '^GType _hbase_application_exception_get_type (void);$' "$patched" ||
  fail "no '#include \"hbase_thrift_t_h_base_service.h\"' line to declare the subclass after"
! grep -q 'THRIFT_TYPE_APPLICATION_EXCEPTION' "$patched" ||
  fail "a THRIFT_TYPE_APPLICATION_EXCEPTION is left"
! grep -q 'thrift_struct_read (THRIFT_STRUCT (xception), protocol, NULL);' "$patched" ||
  fail "an exception reply read with its errors ignored is left"
exit 0
