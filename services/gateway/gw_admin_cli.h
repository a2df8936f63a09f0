/*  =========================================================================
    gw_admin_cli - "backplane-gateway admin ...": offline tools for operators

    Creates users and keypairs, sets passwords and lists users straight in
    the gateway's database, with the same operations (and checks) as the
    API, acting as a superadmin. It works whether or not the gateway runs
    (SQLite's WAL and busy timeout take care of a running one, which sees
    the change within its identity cache's TTL), and on a fresh state
    directory it first creates the installation's defaults.

        backplane-gateway [--config F] admin create-user EMAIL [--password P]
                          [--role R] [--domain D] [--project NAME]
        backplane-gateway admin create-keypair EMAIL
        backplane-gateway admin set-password EMAIL [--password P]
        backplane-gateway admin list-users

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef GW_ADMIN_CLI_H_INCLUDED
#define GW_ADMIN_CLI_H_INCLUDED

//  The bus_service_t command hook of the gateway. Returns the exit status.
int gw_admin_cli(const void *config, int argc, char **argv);

#endif
