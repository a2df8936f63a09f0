/*  =========================================================================
    gw_dotfile_test - dotfile paths and permissions as users write them

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include "t.h"

//  The stored form of path, or "!" when it is refused.
static const char *
s_path(const char *path)
{
    static char out[GW_DOTFILE_PATH_MAX + 1];
    bus_error_t err = {0};
    if (gw_dotfile_path(path, out, &err) != BUS_OK)
        return err.status == BUS_STATUS_INVALID ? "!" : "?";
    return out;
}

static void
test_paths(void)
{
    T_EQ_STR(s_path(".bashrc"), ".bashrc");
    T_EQ_STR(s_path("/home/work/.bashrc"), ".bashrc");
    T_EQ_STR(s_path("bin/tool.sh"), "bin/tool.sh");
    T_EQ_STR(s_path(".config/app/x.conf"), ".config/app/x.conf");
    T_EQ_STR(s_path("..hidden"), "..hidden");
    //  Out of /home/work, or not a file name.
    static const char *const refused[] = {
        "",
        "..",
        "../x",
        "a/../../x",
        "a/..",
        "./x",
        "a//b",
        "x/",
        "/",
        "/home/work",
        "/home/work/",
        "/etc/passwd",
        "/home/worker/x",
        "/home/work/../x",
        "a\nb",
        "a\x7f",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        T_EQ_STR(s_path(refused[i]), "!");
    //  Backend.AI's reserved names.
    T_EQ_STR(s_path(".ssh"), "!");
    T_EQ_STR(s_path(".ssh/authorized_keys"), "!");
    T_EQ_STR(s_path("/home/work/.jupyter"), "!");
    T_EQ_STR(s_path(".ssh/config"), ".ssh/config");
    //  Lengths.
    char name[GW_DOTFILE_NAME_MAX + 2];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = 0;
    T_EQ_STR(s_path(name), "!");
    name[GW_DOTFILE_NAME_MAX] = 0;
    T_EQ_STR(s_path(name), name);
    char long_path[GW_DOTFILE_PATH_MAX + 2];
    for (size_t i = 0; i < sizeof long_path - 1; i++)
        long_path[i] = i % 2 ? '/' : 'd';
    long_path[sizeof long_path - 2] = 'd';
    long_path[sizeof long_path - 1] = 0;
    T_EQ_STR(s_path(long_path), "!");
}

static void
test_permissions(void)
{
    T_ASSERT(gw_dotfile_permission_ok("755"));
    T_ASSERT(gw_dotfile_permission_ok("000"));
    T_ASSERT(gw_dotfile_permission_ok("777"));
    T_ASSERT(!gw_dotfile_permission_ok("778"));
    T_ASSERT(!gw_dotfile_permission_ok("0755"));
    T_ASSERT(!gw_dotfile_permission_ok("75"));
    T_ASSERT(!gw_dotfile_permission_ok(""));
    T_ASSERT(!gw_dotfile_permission_ok(NULL));
    T_ASSERT(!gw_dotfile_permission_ok("rwx"));
}

int
main(void)
{
    T_RUN(test_paths);
    T_RUN(test_permissions);
    return T_DONE();
}
