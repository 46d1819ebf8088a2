/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the host unit tests' harness: TAP output and one summary line.
 *
 * Each test is a function returning true on success; CHECK() records why
 * it failed. run() prints "ok N - name" or "not ok N - name" with the
 * diagnostics as "# " lines; the test program ends with
 * "N passed, N failed". Included once by each test program.
 */
#ifndef ACMA_TESTS_TAP_H
#define ACMA_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int passed, failed, test_no;
static char diag_buf[8192];

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void diag(const char *fmt, ...)
{
	size_t len = strlen(diag_buf);
	va_list ap;

	if (len >= sizeof(diag_buf) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(diag_buf + len, sizeof(diag_buf) - len, fmt, ap);
	va_end(ap);
}

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			diag("line %d: %s: ", __LINE__, #cond);		\
			diag(__VA_ARGS__);				\
			return false;					\
		}							\
	} while (0)

static void run(const char *name, bool (*fn)(void))
{
	char *s, *nl;

	diag_buf[0] = '\0';
	test_no++;
	if (fn()) {
		passed++;
		printf("ok %d - %s\n", test_no, name);
		return;
	}
	failed++;
	printf("not ok %d - %s\n", test_no, name);
	/* every diagnostic line starts with "# " */
	for (s = diag_buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl) {
			printf("# %s\n", s);
			break;
		}
		printf("# %.*s\n", (int)(nl - s), s);
	}
}

/* A named test, for tap_run_all(). */
struct tap_test {
	const char *name;
	bool (*fn)(void);
};

/* Run every test; the exit status of the test program. */
static int tap_run_all(const struct tap_test *tests, size_t n)
{
	size_t i;

	printf("TAP version 13\n1..%zu\n", n);
	for (i = 0; i < n; i++)
		run(tests[i].name, tests[i].fn);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif /* ACMA_TESTS_TAP_H */
