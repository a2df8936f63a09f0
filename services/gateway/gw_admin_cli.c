/*  =========================================================================
    gw_admin_cli - the operator's offline admin command

    The command opens the gateway's database and calls the same admin
    operations the HTTP API does (gw_admin.h), with a context of its own:
    the database, no node (nothing here emits durable events) and the
    operator, a superadmin of the default domain.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "gw_classes.h"
#include <getopt.h> //  getopt_long for the command's options

#define CLI_PASSWORD_CHARS 16

static int
s_usage(FILE *out)
{
    fprintf(
        out,
        "usage: backplane-gateway [--config FILE] admin COMMAND\n"
        "  create-user EMAIL [--password P] [--role superadmin|admin|user|monitor]\n"
        "              [--domain D] [--project NAME]\n"
        "  create-keypair EMAIL\n"
        "  set-password EMAIL [--password P]\n"
        "  list-users\n"
        "  alias-image ALIAS REFERENCE   (sets or repoints; the image may come later)\n"
        "A password left out is generated and printed once.\n");
    return out == stdout ? 0 : 2;
}

//  Prints a failure and returns the exit status for it.
static int
s_fail(const char *what, const bus_error_t *err)
{
    fprintf(stderr, "backplane-gateway admin: %s: %s\n", what, err->detail);
    return 1;
}

static void
s_print_keypairs(gw_ctx_t *ctx, const char *email)
{
    json_t *args = json_pack("{s:s}", "email", email), *keypairs = NULL;
    bus_error_t err = {0};
    if (gw_keypair_list(ctx, args, &keypairs, &err) == BUS_OK) {
        size_t index;
        json_t *keypair;
        json_array_foreach(keypairs, index, keypair)
            printf("access_key=%s secret_key=%s\n",
                   json_string_value(json_object_get(keypair, "access_key")),
                   json_string_value(json_object_get(keypair, "secret_key")));
    }
    json_decref(keypairs);
    json_decref(args);
}

//  Finds the id of project name in domain; NULL when there is none.
static char *
s_project_id(gw_ctx_t *ctx, const char *domain, const char *name)
{
    json_t *args = json_pack("{s:s}", "domain_name", domain), *groups = NULL;
    bus_error_t err = {0};
    char *id = NULL;
    if (gw_group_list(ctx, args, &groups, &err) == BUS_OK) {
        size_t index;
        json_t *group;
        json_array_foreach(
            groups, index,
            group) if (!id && strcmp(json_string_value(json_object_get(group, "name")),
                                     name) == 0) id =
            strdup(json_string_value(json_object_get(group, "id")));
    }
    json_decref(groups);
    json_decref(args);
    return id;
}

static int
s_run(gw_ctx_t *ctx, const gw_config_t *config, int argc, char **argv)
{
    static const struct option options[] = {
        {"password", required_argument, NULL, 'p'},
        {"role", required_argument, NULL, 'r'},
        {"domain", required_argument, NULL, 'd'},
        {"project", required_argument, NULL, 'g'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *password = NULL, *role = "user", *domain = config->default_domain;
    const char *project = NULL;
    optind = 0; //  glibc: 0 restarts getopt fully (the service parsed its options)
    int opt;
    while ((opt = getopt_long(argc, argv, "p:r:d:g:h", options, NULL)) != -1) {
        switch (opt) {
            case 'p':
                password = optarg;
                break;
            case 'r':
                role = optarg;
                break;
            case 'd':
                domain = optarg;
                break;
            case 'g':
                project = optarg;
                break;
            case 'h':
                return s_usage(stdout);
            default:
                return s_usage(stderr);
        }
    }
    const char *command = argv[0];
    const char *email = optind < argc ? argv[optind] : NULL;
    char generated[GW_SECRET_KEY_SIZE];
    bus_error_t err = {0};
    if (strcmp(command, "list-users") == 0) {
        json_t *users = NULL, *args = json_object();
        int rc = gw_user_list(ctx, args, &users, &err);
        json_decref(args);
        if (rc != BUS_OK)
            return s_fail("list-users", &err);
        size_t index;
        json_t *user;
        json_array_foreach(users, index, user)
            printf("%s role=%s domain=%s status=%s\n",
                   json_string_value(json_object_get(user, "email")),
                   json_string_value(json_object_get(user, "role")),
                   json_string_value(json_object_get(user, "domain_name")),
                   json_string_value(json_object_get(user, "status")));
        json_decref(users);
        return 0;
    }
    if (!email)
        return s_usage(stderr);
    if (strcmp(command, "alias-image") == 0) {
        const char *target = optind + 1 < argc ? argv[optind + 1] : NULL;
        if (!target)
            return s_usage(stderr);
        if (gw_image_alias_preset(ctx->db, email, target, &err) != BUS_OK)
            return s_fail("alias-image", &err);
        printf("alias %s -> %s\n", email, target);
        return 0;
    }
    if (!password && strcmp(command, "create-keypair") != 0) {
        if (gw_secret_key_new(generated) != 0)
            return 1;
        generated[CLI_PASSWORD_CHARS] = 0;
        password = generated;
    }
    if (strcmp(command, "create-user") == 0) {
        json_t *props = json_pack("{s:s, s:s, s:s}", "password", password, "role", role,
                                  "domain_name", domain);
        char *project_id = project ? s_project_id(ctx, domain, project) : NULL;
        if (project && !project_id) {
            json_decref(props);
            bus_error_set(&err, BUS_STATUS_NOT_FOUND, "no project %s in domain %s",
                          project, domain);
            return s_fail("create-user", &err);
        }
        if (project_id)
            json_object_set_new(props, "group_ids", json_pack("[s]", project_id));
        free(project_id);
        json_t *user = NULL;
        int rc = gw_user_create(ctx, email, props, &user, &err);
        json_decref(props);
        json_decref(user);
        if (rc != BUS_OK)
            return s_fail("create-user", &err);
        printf("created user=%s role=%s domain=%s password=%s\n", email, role, domain,
               password);
        s_print_keypairs(ctx, email);
        return 0;
    }
    if (strcmp(command, "create-keypair") == 0) {
        json_t *keypair = NULL, *props = json_object();
        int rc = gw_keypair_create(ctx, email, props, &keypair, &err);
        json_decref(props);
        if (rc != BUS_OK)
            return s_fail("create-keypair", &err);
        printf("access_key=%s secret_key=%s\n",
               json_string_value(json_object_get(keypair, "access_key")),
               json_string_value(json_object_get(keypair, "secret_key")));
        json_decref(keypair);
        return 0;
    }
    if (strcmp(command, "set-password") == 0) {
        json_t *user = NULL, *props = json_pack("{s:s}", "password", password);
        int rc = gw_user_modify(ctx, email, props, &user, &err);
        json_decref(props);
        json_decref(user);
        if (rc != BUS_OK)
            return s_fail("set-password", &err);
        printf("password of %s set to %s\n", email, password);
        return 0;
    }
    return s_usage(stderr);
}

int
gw_admin_cli(const void *config_, int argc, char **argv)
{
    const gw_config_t *config = config_;
    if (argc < 2 || strcmp(argv[0], "admin") != 0)
        return s_usage(stderr);
    char path[4096];
    snprintf(path, sizeof path, "%s/gateway.db", config->node.state_dir);
    bus_error_t err = {0};
    if (bus_mkdirs(config->node.state_dir) != 0) {
        bus_error_set(&err, BUS_STATUS_UNAVAILABLE, "cannot create %s: %s",
                      config->node.state_dir, strerror(errno));
        return s_fail("state directory", &err);
    }
    bus_db_t *db = bus_db_open(path, gw_db_migrations, GW_DB_MIGRATION_COUNT, &err);
    if (!db)
        return s_fail(path, &err);
    char endpoint[320];
    snprintf(endpoint, sizeof endpoint, "http://%s", config->listen);
    int status = 1;
    if (gw_bootstrap(db, config, endpoint, &err) != 0)
        status = s_fail("bootstrap", &err);
    else {
        //  The operator acts as a superadmin of the default domain.
        gw_identity_t operator= {
            .role = GW_ROLE_SUPERADMIN, .user_active = true, .keypair_active = true};
        snprintf(operator.email, sizeof operator.email, "operator@%s",
                 "backplane-gateway");
        snprintf(operator.domain, sizeof operator.domain, "%s", config->default_domain);
        gw_ctx_t ctx = {.db = db, .config = config, .who = &operator};
        status = s_run(&ctx, config, argc - 1, argv + 1);
    }
    bus_db_destroy(&db);
    return status;
}
