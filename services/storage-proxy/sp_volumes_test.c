/*  =========================================================================
    sp_volumes_test - the storage.volumes spec (names, backends, relative and
    absolute paths, mistakes named), host names, folder ids and paths,
    statvfs figures; and sp_jobs handing work to threads and back

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "sp_classes.h"
#include <ftw.h>      //  nftw: removing the fixture
#include <sys/stat.h> //  stat, mkdir
#include "t.h"

static char s_tmp[64];

static int
s_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st;
    (void) flag;
    (void) ftw;
    return remove(path);
}

static bool
s_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void
test_spec(void)
{
    char abs[128], spec[512], path[256];
    snprintf(abs, sizeof abs, "%s/mounted", s_tmp);
    T_ASSERT(mkdir(abs, 0755) == 0);
    snprintf(spec, sizeof spec, " volume1 = local : vfolders/volume1 ,fast=local:%s,",
             abs);
    bus_error_t err = {0};
    sp_volumes_t *volumes = sp_volumes_new(spec, s_tmp, "local", &err);
    T_ASSERT(volumes);
    T_EQ_INT(sp_volumes_count(volumes), 2);
    const sp_volume_t *v = sp_volumes_at(volumes, 0);
    T_EQ_STR(v->name, "volume1");
    T_EQ_STR(v->host, "local:volume1");
    T_EQ_STR(v->backend, "local");
    snprintf(path, sizeof path, "%s/vfolders/volume1", s_tmp);
    T_EQ_STR(v->path, path);
    T_ASSERT(s_is_dir(path)); //  relative: made
    snprintf(path, sizeof path, "%s/vfolders/volume1/" SP_VOLUMES_TRASH, s_tmp);
    T_ASSERT(s_is_dir(path));
    T_ASSERT(*v->fs_type);
    v = sp_volumes_find(volumes, "fast");
    T_ASSERT(v);
    T_EQ_STR(v->path, abs);
    T_EQ_STR(v->host, "local:fast");
    T_ASSERT(!sp_volumes_find(volumes, "slow"));
    T_ASSERT(!sp_volumes_at(volumes, 2));
    T_EQ_STR(sp_volumes_proxy(volumes), "local");
    sp_volume_usage_t usage;
    T_EQ_INT(sp_volumes_usage(v, &usage, &err), 0);
    T_ASSERT(usage.capacity > 0 && usage.used <= usage.capacity);
    sp_volumes_destroy(&volumes);
    sp_volumes_destroy(&volumes);
    T_ASSERT(!volumes);
}

static void
test_bad_specs(void)
{
    struct {
        const char *spec;
        int status;
        const char *detail;
    } cases[] = {
        {"", BUS_STATUS_INVALID, "empty entry"},
        {"a=local:x,,b=local:y", BUS_STATUS_INVALID, "empty entry"},
        {"volume1", BUS_STATUS_INVALID, "is not NAME=BACKEND:PATH"},
        {"volume1=local", BUS_STATUS_INVALID, "is not NAME=BACKEND:PATH"},
        {"a/b=local:x", BUS_STATUS_INVALID, "bad volume name"},
        {"..=local:x", BUS_STATUS_INVALID, "bad volume name"},
        {"a=nfs:x", BUS_STATUS_INVALID, "unknown backend"},
        {"a=local:", BUS_STATUS_INVALID, "no path"},
        {"a=local:x,a=local:y", BUS_STATUS_INVALID, "named twice"},
        {"a=local:/nonexistent/backplane/volume", BUS_STATUS_NOT_FOUND,
         "not a directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bus_error_t err = {0};
        sp_volumes_t *volumes = sp_volumes_new(cases[i].spec, s_tmp, "local", &err);
        T_ASSERT(!volumes);
        T_EQ_INT(err.status, cases[i].status);
        T_CONTAINS(err.detail, cases[i].detail);
    }
    bus_error_t err = {0};
    T_ASSERT(!sp_volumes_new("a=local:x", s_tmp, "has:colon", &err));
    T_ASSERT(!sp_volumes_new("a=local:x", s_tmp, "", &err));
}

static void
test_ids(void)
{
    char id[SP_FOLDER_ID_LEN + 1];
    bus_error_t err = {0};
    T_EQ_INT(sp_volumes_check_id("5E0D2C6A-8F1B-4D7E-9A3C-1B2C3D4E5F60", id, &err), 0);
    T_EQ_STR(id, "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60");
    T_EQ_INT(sp_volumes_check_id("5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60", id, &err), 0);
    T_EQ_STR(id, "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60");
    const char *bad[] = {NULL,
                         "",
                         "5e0d2c6a",
                         "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f6g",
                         "5e0d2c6a-8f1b-4d7e-9a3c_1b2c3d4e5f60",
                         "../../../../../../../etc/x",
                         "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f600"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        T_EQ_INT(sp_volumes_check_id(bad[i], id, &err), -1);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        T_EQ_STR(id, "");
    }
    sp_volume_t volume = {.path = "/srv/v"};
    char path[128];
    T_EQ_INT(sp_volumes_folder_path(&volume, "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60", path,
                                    sizeof path),
             0);
    T_EQ_STR(path, "/srv/v/5e/5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60");
    T_EQ_INT(
        sp_volumes_folder_path(&volume, "5e0d2c6a8f1b4d7e9a3c1b2c3d4e5f60", path, 10),
        -1);
}

//  sp_jobs: each job's work runs on a thread, its done on the loop after.
typedef struct {
    int value;
    bool worked;
    bool done;
    bool cancelled;
    int *finished;
} job_t;

static void
s_work(void *arg, sp_jobs_t *jobs)
{
    job_t *job = arg;
    job->value *= 2;
    job->worked = true;
    while (job->value < 0 && !sp_jobs_stopping(jobs)) //  a long job: until told
        usleep(1000);
}

static void
s_done(void *arg, bool cancelled)
{
    job_t *job = arg;
    job->done = true;
    job->cancelled = cancelled;
    (*job->finished)++;
}

static void
test_jobs(void)
{
    struct event_base *base = event_base_new();
    T_ASSERT(base);
    sp_jobs_t *jobs = sp_jobs_new(base);
    T_ASSERT(jobs);
    int finished = 0;
    job_t list[8];
    for (int i = 0; i < 8; i++) {
        list[i] = (job_t){.value = i + 1, .finished = &finished};
        T_EQ_INT(sp_jobs_start(jobs, s_work, s_done, &list[i]), 0);
    }
    int64_t started = bus_clock_mono_ms();
    while (finished < 8 && bus_clock_mono_ms() - started < 5000)
        event_base_loop(base, EVLOOP_ONCE);
    T_EQ_INT(finished, 8);
    T_EQ_INT(sp_jobs_running(jobs), 0);
    for (int i = 0; i < 8; i++) {
        T_ASSERT(list[i].worked && list[i].done && !list[i].cancelled);
        T_EQ_INT(list[i].value, 2 * (i + 1));
    }
    //  A job still running when the jobs go is told to stop, then cancelled.
    job_t slow = {.value = -1, .finished = &finished};
    T_EQ_INT(sp_jobs_start(jobs, s_work, s_done, &slow), 0);
    T_EQ_INT(sp_jobs_running(jobs), 1);
    sp_jobs_destroy(&jobs);
    T_ASSERT(!jobs);
    T_ASSERT(slow.done && slow.cancelled);
    T_EQ_INT(finished, 9);
    sp_jobs_destroy(&jobs);
    event_base_free(base);
}

int
main(void)
{
    snprintf(s_tmp, sizeof s_tmp, "/tmp/sp_volumes_test.XXXXXX");
    if (!mkdtemp(s_tmp))
        return 1;
    T_RUN(test_spec);
    T_RUN(test_bad_specs);
    T_RUN(test_ids);
    T_RUN(test_jobs);
    nftw(s_tmp, s_remove_one, 16, FTW_DEPTH | FTW_PHYS);
    return T_DONE();
}
