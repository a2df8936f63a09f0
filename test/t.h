/*  =========================================================================
    t.h - the tiny test harness every unit and integration test uses

    Each test is a `static void test_x (void)`; T_RUN runs it and prints one TAP
    line ("ok 3 - test_x" or "not ok 3 - test_x"). A failed assertion prints the
    file, line and expression and returns from the test. A test that cannot run on
    this machine says why with T_SKIP and returns: its line is "ok 3 - test_x # SKIP
    why", which test/run-tests counts as skipped, not passed; T_RUN_SKIP does the
    same for a test main does not call at all. T_DONE() ends main with a non-zero
    status when anything failed. test/run-tests counts the TAP lines.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef T_H_INCLUDED
#define T_H_INCLUDED

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_count;
static int t_failures;
static bool t_current_failed;
static char t_skip_reason[256]; //  set by T_SKIP in the running test

#define T_FAIL_(...)                                                                     \
    do {                                                                                 \
        fprintf(stderr, "# %s:%d: ", __FILE__, __LINE__);                                \
        fprintf(stderr, __VA_ARGS__);                                                    \
        fprintf(stderr, "\n");                                                           \
        t_current_failed = true;                                                         \
        return;                                                                          \
    } while (0)

#define T_ASSERT(cond)                                                                   \
    do {                                                                                 \
        if (!(cond))                                                                     \
            T_FAIL_("assertion failed: %s", #cond);                                      \
    } while (0)

#define T_EQ_INT(a, b)                                                                   \
    do {                                                                                 \
        long long t_a_ = (long long) (a), t_b_ = (long long) (b);                        \
        if (t_a_ != t_b_)                                                                \
            T_FAIL_("%s == %s: %lld != %lld", #a, #b, t_a_, t_b_);                       \
    } while (0)

#define T_EQ_STR(a, b)                                                                   \
    do {                                                                                 \
        const char *t_a_ = (a), *t_b_ = (b);                                             \
        if (!t_a_ || !t_b_ || strcmp(t_a_, t_b_) != 0)                                   \
            T_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b, t_a_ ? t_a_ : "(null)",        \
                    t_b_ ? t_b_ : "(null)");                                             \
    } while (0)

#define T_CONTAINS(haystack, needle)                                                     \
    do {                                                                                 \
        const char *t_h_ = (haystack), *t_n_ = (needle);                                 \
        if (!t_h_ || !strstr(t_h_, t_n_))                                                \
            T_FAIL_("%s contains \"%s\": got \"%s\"", #haystack, t_n_,                   \
                    t_h_ ? t_h_ : "(null)");                                             \
    } while (0)

//  Ends the running test as skipped, with the reason (printf-style).
#define T_SKIP(...)                                                                      \
    do {                                                                                 \
        snprintf(t_skip_reason, sizeof t_skip_reason, __VA_ARGS__);                      \
        return;                                                                          \
    } while (0)

#define T_RUN(fn)                                                                        \
    do {                                                                                 \
        t_current_failed = false;                                                        \
        t_skip_reason[0] = '\0';                                                         \
        fn();                                                                            \
        t_count++;                                                                       \
        if (t_current_failed)                                                            \
            t_failures++;                                                                \
        printf("%sok %d - %s%s%s\n", t_current_failed ? "not " : "", t_count, #fn,       \
               t_skip_reason[0] && !t_current_failed ? " # SKIP " : "",                  \
               t_current_failed ? "" : t_skip_reason);                                   \
        fflush(stdout);                                                                  \
    } while (0)

//  A test main does not run on this machine, with the reason.
#define T_RUN_SKIP(fn, reason)                                                           \
    do {                                                                                 \
        t_count++;                                                                       \
        printf("ok %d - %s # SKIP %s\n", t_count, #fn, reason);                          \
        fflush(stdout);                                                                  \
    } while (0)

//  The path of the binary backplane-<name> into out: in $BACKPLANE_BINDIR
//  when set (make check sets it), else in ../bin beside the test's own
//  binary (argv0), so a test run by hand from any directory finds the build's.
static inline void
t_binary_path(char *out, size_t size, const char *argv0, const char *name)
{
    const char *bindir = getenv("BACKPLANE_BINDIR");
    if (bindir) {
        snprintf(out, size, "%s/backplane-%s", bindir, name);
        return;
    }
    const char *slash = strrchr(argv0, '/');
    int dir = slash ? (int) (slash - argv0) : 1;
    snprintf(out, size, "%.*s/../bin/backplane-%s", dir, slash ? argv0 : ".", name);
}

#define T_DONE() (printf("1..%d\n", t_count), t_failures ? 1 : 0)

#endif
