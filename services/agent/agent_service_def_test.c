/*  =========================================================================
    agent_service_def_test - service definitions rendered as shell scripts

    Each script is run by /bin/sh here, with its exec replaced by a program
    that prints its arguments one per line, so what the test checks is what
    the app would be started with, quoting and all.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "agent_classes.h"
#include "t.h"

static const int s_ports[] = {8080, 8081};

//  Runs script in dir with "exec" made to print each argument on a line
//  ("<" arg ">"), then the environment variable show when given. Returns
//  the output (caller frees).
static char *
s_run(const char *script, const char *dir, const char *show)
{
    char path[256], command[512];
    snprintf(path, sizeof path, "%s/script.sh", dir);
    FILE *file = fopen(path, "w");
    if (!file)
        return NULL;
    //  exec is a special builtin: a function cannot replace it, an alias can.
    fprintf(file, "cd %s\nargs() { for a in \"$@\"; do printf '<%%s>\\n' \"$a\"; done; ",
            dir);
    if (show)
        fprintf(file, "printf 'env=%%s\\n' \"$%s\"; ", show);
    fprintf(file, "}\nalias exec=args\n%s", script);
    fclose(file);
    snprintf(command, sizeof command, "sh %s 2>&1", path);
    FILE *pipe = popen(command, "r");
    if (!pipe)
        return NULL;
    char *out = calloc(1, 65536);
    size_t n = out ? fread(out, 1, 65535, pipe) : 0;
    (void) n;
    pclose(pipe);
    return out;
}

static char *
s_render(const char *def, json_t *arguments, json_t *envs, bus_error_t *err, bool *noop)
{
    agent_service_vars_t vars = {.runtime_path = "/usr/bin/python3",
                                 .ports = s_ports,
                                 .nports = 2,
                                 .arguments = arguments,
                                 .envs = envs};
    char *script = NULL;
    bool skip = false;
    if (agent_service_def_render(def, strlen(def), &vars, &script, noop ? noop : &skip,
                                 err) != BUS_OK)
        return NULL;
    return script;
}

static void
test_names_and_ports(void)
{
    T_ASSERT(agent_service_name_valid("jupyter"));
    T_ASSERT(agent_service_name_valid("my-app_2"));
    T_ASSERT(!agent_service_name_valid(""));
    T_ASSERT(!agent_service_name_valid("../etc"));
    T_ASSERT(!agent_service_name_valid("a b"));
    int ports[4];
    T_EQ_INT(agent_service_ports_parse("8080", ports, 4), 1);
    T_EQ_INT(ports[0], 8080);
    T_EQ_INT(agent_service_ports_parse("8080,8081,9", ports, 4), 3);
    T_EQ_INT(ports[2], 9);
    T_EQ_INT(agent_service_ports_parse("", ports, 4), -1);
    T_EQ_INT(agent_service_ports_parse("0", ports, 4), -1);
    T_EQ_INT(agent_service_ports_parse("65536", ports, 4), -1);
    T_EQ_INT(agent_service_ports_parse("80,", ports, 4), -1);
    T_EQ_INT(agent_service_ports_parse("80;rm", ports, 4), -1);
    T_EQ_INT(agent_service_ports_parse("1,2,3,4,5", ports, 4), -1);
    T_ASSERT(agent_service_def_builtin("jupyter"));
    T_ASSERT(agent_service_def_builtin("ttyd"));
    T_ASSERT(!agent_service_def_builtin("sshd"));
}

static void
test_command_and_placeholders(void)
{
    char dir[] = "/tmp/agent_service_def_test.XXXXXX";
    T_ASSERT(mkdtemp(dir));
    bus_error_t err = {0};
    char *script =
        s_render("{\"command\": [\"{runtime_path}\", \"-m\", \"http.server\","
                 " \"--port={ports[0]}\", \"it's {{literal}}\", \"{ports[1]}\"]}",
                 NULL, NULL, &err, NULL);
    T_ASSERT(script);
    char *out = s_run(script, dir, NULL);
    T_EQ_STR(out, "</usr/bin/python3>\n<-m>\n<http.server>\n<--port=8080>\n"
                  "<it's {literal}>\n<8081>\n");
    free(out);
    free(script);
    //  The built-in ttyd is backplane-ttyd on the app's port.
    script = s_render(agent_service_def_builtin("ttyd"), NULL, NULL, &err, NULL);
    T_ASSERT(script);
    out = s_run(script, dir, NULL);
    T_EQ_STR(out, "</opt/backplane/bin/backplane-ttyd>\n<--port>\n<8080>\n");
    free(out);
    free(script);
    //  The built-in Jupyter has no token.
    const char *jupyter = agent_service_def_builtin("jupyter");
    script = s_render(jupyter, NULL, NULL, &err, NULL);
    T_ASSERT(script);
    out = s_run(script, dir, NULL);
    T_CONTAINS(out, "<--port=8080>");
    T_CONTAINS(out, "<--NotebookApp.token=>");
    free(out);
    free(script);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    T_EQ_INT(system(command), 0);
}

static void
test_prestart_env_and_arguments(void)
{
    char dir[] = "/tmp/agent_service_def_test.XXXXXX";
    T_ASSERT(mkdtemp(dir));
    bus_error_t err = {0};
    const char *def =
        "{\"prestart\": ["
        "  {\"action\": \"mkdir\", \"args\": {\"path\": \"conf.d\"}},"
        "  {\"action\": \"write_file\", \"args\": {\"filename\": \"conf.d/a\","
        "   \"body\": [\"port={ports[0]}\", \"$(touch pwned)\"], \"mode\": \"600\"}},"
        "  {\"action\": \"write_tempfile\", \"args\": {\"body\": [\"x\"]}, \"ref\": "
        "\"tmp\"},"
        "  {\"action\": \"log\", \"args\": {\"message\": \"starting\"}}],"
        " \"env\": {\"GREETING\": \"hello '{ports[0]}'\"},"
        " \"allowed_envs\": [\"MODE\"],"
        " \"allowed_arguments\": [\"--level\", \"--tag\"],"
        " \"default_arguments\": {\"--level\": \"1\", \"--quiet\": null},"
        " \"command\": [\"prog\", \"--config={tmp}\"]}";
    json_t *arguments = json_pack("{s:s, s:[s,s]}", "--level", "3", "--tag", "a;b", "c");
    json_t *envs = json_pack("{s:s}", "MODE", "x'y");
    char *script = s_render(def, arguments, envs, &err, NULL);
    T_ASSERT(script);
    char *out = s_run(script, dir, "GREETING");
    T_CONTAINS(out, "starting\n");
    T_CONTAINS(out, "<prog>\n<--config=/tmp/");
    T_CONTAINS(out, "<--quiet>\n<--level>\n<3>\n<--tag>\n<a;b>\n<c>\n");
    T_CONTAINS(out, "env=hello '8080'");
    free(out);
    free(script);
    char path[256];
    snprintf(path, sizeof path, "%s/conf.d/a", dir);
    FILE *file = fopen(path, "r");
    char text[128] = "";
    T_ASSERT(file && fread(text, 1, sizeof text - 1, file) > 0);
    if (file)
        fclose(file);
    T_EQ_STR(text, "port=8080\n$(touch pwned)\n");
    struct stat st;
    T_EQ_INT(stat(path, &st), 0);
    T_EQ_INT(st.st_mode & 0777, 0600);
    snprintf(path, sizeof path, "%s/pwned", dir);
    T_ASSERT(access(path, F_OK) != 0); //  never parsed by the shell
    json_decref(arguments);
    json_decref(envs);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    T_EQ_INT(system(command), 0);
}

static void
test_refused(void)
{
    bus_error_t err = {0};
    bool noop = false;
    char *script =
        s_render("{\"noop\": true, \"command\": [\"x\"]}", NULL, NULL, &err, &noop);
    T_ASSERT(!script && noop);
    const char *bad[] = {
        "[]",
        "{\"command\": []}",
        "{\"command\": [\"x\"], \"unknown\": 1}",
        "{\"command\": [\"{nothing}\"]}",
        "{\"command\": [\"{ports[2]}\"]}",
        "{\"command\": [\"{ports[x]}\"]}",
        "{\"command\": [\"{open\"]}",
        "{\"command\": [\"x}\"]}",
        "{\"command\": [1]}",
        "{\"command\": [\"x\"], \"prestart\": [{\"action\": \"format_disk\"}]}",
        "{\"command\": [\"x\"], \"prestart\": [{\"action\": \"run_command\", \"args\": "
        "{\"command\": [\"id\"]}, \"ref\": \"a b\"}]}",
        "{\"command\": [\"x\"], \"env\": {\"A-B\": \"1\"}}",
        "{\"command\": [\"x\"], \"prestart\": [{\"action\": \"write_file\", \"args\": "
        "{\"filename\": \"f\", \"body\": [], \"mode\": \"rwx\"}}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err = (bus_error_t){0};
        script = s_render(bad[i], NULL, NULL, &err, NULL);
        if (script)
            printf("# accepted: %s\n", bad[i]);
        T_ASSERT(!script);
        T_EQ_INT(err.status, BUS_STATUS_INVALID);
        free(script);
    }
    //  What the user may not add.
    json_t *arguments = json_pack("{s:n}", "--evil");
    json_t *envs = json_pack("{s:s}", "LD_PRELOAD", "/x.so");
    script = s_render("{\"command\": [\"x\"], \"allowed_arguments\": [\"--ok\"]}",
                      arguments, NULL, &err, NULL);
    T_ASSERT(!script);
    T_CONTAINS(err.detail, "--evil");
    script = s_render("{\"command\": [\"x\"]}", NULL, envs, &err, NULL);
    T_ASSERT(!script);
    T_CONTAINS(err.detail, "LD_PRELOAD");
    json_decref(arguments);
    json_decref(envs);
    //  No runtime path.
    agent_service_vars_t vars = {.ports = s_ports, .nports = 1};
    const char *def = "{\"command\": [\"{runtime_path}\"]}";
    T_EQ_INT(agent_service_def_render(def, strlen(def), &vars, &script, &noop, &err),
             BUS_STATUS_INVALID);
}

int
main(void)
{
    T_RUN(test_names_and_ports);
    T_RUN(test_command_and_placeholders);
    T_RUN(test_prestart_env_and_arguments);
    T_RUN(test_refused);
    return T_DONE();
}
