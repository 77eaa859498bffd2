# SPDX-License-Identifier: Apache-2.0
# tests/structures/local.mk: the encodings of sets and sorted sets (no server).
check_PROGRAMS += tests/structures/test-structures-encoding
tests_structures_test_structures_encoding_LDADD = $(internal_ldadd) -lm
