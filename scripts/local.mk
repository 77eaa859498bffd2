# SPDX-License-Identifier: Apache-2.0
# scripts/local.mk: the project's scripts (dependencies, the local stack,
# the demo, the whole test run) and the local stack's Java helpers.
EXTRA_DIST += \
	scripts/install-deps.sh \
	scripts/build.sh \
	scripts/stack.sh \
	scripts/demo.sh \
	scripts/test.sh \
	scripts/stack/pom.xml \
	scripts/stack/log4j2.properties \
	scripts/stack/StackProbe.java
