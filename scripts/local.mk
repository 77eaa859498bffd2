# SPDX-License-Identifier: Apache-2.0
# scripts/local.mk: the project's scripts (dependencies, the local stack,
# the demo, the whole test run) and the local stack's Java helpers.
EXTRA_DIST += \
	scripts/install-deps.sh \
	scripts/build.sh \
	scripts/stack.sh \
	scripts/stack-secure.sh \
	scripts/demo.sh \
	scripts/test.sh \
	scripts/stack/pom.xml \
	scripts/stack/log4j2.properties \
	scripts/stack/StackProbe.java \
	scripts/stack/SecureProbe.java
# scripts/package.sh: the Debian packages built and tested (debian/ is not
# in the tarball), with the programs it builds against them.
EXTRA_DIST += \
	scripts/package.sh \
	tests/install/installed-roundtrip.c \
	tests/install/installed-roundtrip.py
