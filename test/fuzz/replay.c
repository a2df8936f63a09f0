/*  =========================================================================
    replay - runs a fuzz target over its committed corpus, as a plain test

    Linked with one target (test/fuzz/fuzz_X.c) into X_replay, so that make
    check exercises the corpus under any compiler (the sqlite fuzzcheck
    idea). With no arguments it replays test/fuzz/corpus/X/ (run from the
    repository root); otherwise each argument is a directory or a file. It
    prints one TAP line per argument ("ok 1 - fuzz_proto corpus: 37 inputs")
    and 1..N; an empty or missing directory is "not ok". A crash or sanitizer
    report in the target ends the run, as it would in libFuzzer.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "bus_classes.h"
//  Directory walking and file types, for the corpus directories.
#include <dirent.h>
#include <libgen.h>
#include <sys/stat.h>

#define REPLAY_SUFFIX     "_replay"
#define REPLAY_CORPUS_DIR "test/fuzz/corpus"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
//  Optional in a target: weak, so that it is NULL when the target has none.
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

//  Feeds one file to the target in a buffer of exactly its size, so that the
//  sanitizers catch reads past the end. Returns 0, or -1 if it cannot be read.
static int
s_run_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return -1;
    size_t allocated = 4096, size = 0;
    uint8_t *data = malloc(allocated);
    while (data) {
        size_t got = fread(data + size, 1, allocated - size, file);
        size += got;
        if (size < allocated)
            break;
        uint8_t *grown = realloc(data, allocated * 2);
        if (!grown) {
            free(data);
            data = NULL;
            break;
        }
        data = grown;
        allocated *= 2;
    }
    bool failed = !data || ferror(file);
    fclose(file);
    if (failed) {
        free(data);
        return -1;
    }
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

static int
s_skip_hidden(const struct dirent *entry)
{
    return entry->d_name[0] != '.';
}

//  Replays a directory (sorted, regular files only) or a single file.
//  Returns the number of inputs, or -1 when the path cannot be read.
static int
s_replay(const char *path)
{
    struct stat info;
    if (stat(path, &info) != 0)
        return -1;
    if (!S_ISDIR(info.st_mode))
        return s_run_file(path) == 0 ? 1 : -1;
    struct dirent **names;
    int count = scandir(path, &names, s_skip_hidden, alphasort);
    if (count < 0)
        return -1;
    int inputs = 0;
    bool unreadable = false;
    for (int i = 0; i < count; i++) {
        char file[PATH_MAX];
        int length = snprintf(file, sizeof file, "%s/%s", path, names[i]->d_name);
        if (length < 0 || (size_t) length >= sizeof file)
            unreadable = true;
        else if (stat(file, &info) == 0 && S_ISREG(info.st_mode)) {
            if (s_run_file(file) == 0)
                inputs++;
            else
                unreadable = true;
        }
        free(names[i]);
    }
    free(names);
    return unreadable ? -1 : inputs;
}

int
main(int argc, char *argv[])
{
    //  The target's name is our own minus "_replay": build/test/fuzz_proto_replay.
    char self[PATH_MAX];
    snprintf(self, sizeof self, "%s", argv[0]);
    char *target = basename(self);
    size_t len = strlen(target), suffix = strlen(REPLAY_SUFFIX);
    if (len > suffix && strcmp(target + len - suffix, REPLAY_SUFFIX) == 0)
        target[len - suffix] = 0;

    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);

    char fallback[PATH_MAX];
    snprintf(fallback, sizeof fallback, "%s/%s", REPLAY_CORPUS_DIR, target);
    int paths = argc > 1 ? argc - 1 : 1;
    int failures = 0;
    for (int i = 0; i < paths; i++) {
        const char *path = argc > 1 ? argv[i + 1] : fallback;
        int inputs = s_replay(path);
        bool ok = inputs > 0;
        if (!ok)
            failures++;
        printf("%sok %d - %s corpus %s: %d input%s%s\n", ok ? "" : "not ", i + 1, target,
               path, inputs < 0 ? 0 : inputs, inputs == 1 ? "" : "s",
               inputs < 0 ? " (cannot read)" : "");
        fflush(stdout);
    }
    printf("1..%d\n", paths);
    return failures ? 1 : 0;
}
