/*  =========================================================================
    testbed_client - a deploy/testbed of one test's own, and what the
    testbed tests (testbed_test, testbed_ops_test, testbed_wan_test,
    testbed_faults_test, testbed_cluster_test) ask of it (see
    testbed_client.c)

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#ifndef TESTBED_CLIENT_H_INCLUDED
#define TESTBED_CLIENT_H_INCLUDED

#include <stdbool.h>
#include <stddef.h>

#include "gateway_client.h"

#define TESTBED_KERNELS_MAX 8  //  kernels whose namespaces down must have removed
#define TESTBED_SPARES_MAX  64 //  spare namespaces seen in the agents' net-spares/
#define TESTBED_ID_SIZE     64 //  a session's, kernel's or agent's id, with its NUL

//  One test's testbed. The test fills in what it is (name, letters, env,
//  agents) in a static initializer; testbed_up fills in the rest.
typedef struct {
    const char *name;    //  the temp directory's name ("testbed-ops")
    const char *letters; //  the prefix's letters ("bpo"): the prefix is "bpo<N>"
    //  This test's own deploy/testbed settings, before every command
    //  ("TESTBED_AGENT_CPU=2 TESTBED_AGENT_MEM=1g"; borrowed).
    const char *env;
    //  Every agent the test runs, "host/service" ("agent1/agent",
    //  "agent1/agentb"), NULL-terminated (borrowed): whose runc states the
    //  container counts read, whose logs must end "stopped".
    const char *const *agents;
    const char *killed; //  an agent ("host/service") killed: its log just ends
    //  A shell command run in the testbed's directory before up, with BINDIR
    //  the binaries' absolute directory: what an earlier run left there
    //  (NULL: nothing; borrowed).
    const char *seed;

    char *dir;           //  the testbed's directory (owned)
    char net[32];        //  "10.240.N": the hosts' /24, a harness_subnet
    char prefix[16];     //  "<letters>N": the namespaces' and links' prefix
    client_platform_t p; //  the gateway's address and the superadmin
    bool up;             //  up ran and no down since
    //  The kernels the test ran: down must leave no namespace of theirs
    //  ("" for none).
    char kernels[TESTBED_KERNELS_MAX][TESTBED_ID_SIZE];
    //  The spare namespaces seen in the agents' net-spares/ files.
    char spares[TESTBED_SPARES_MAX][TESTBED_ID_SIZE];
    int spare_count;
} testbed_t;

//  ---------------------------------------------------------------------------
//  Whether this machine can run a testbed: root, runc, umoci, tini, ip,
//  nsenter, python3 and curl. When not, prints the TAP plan that skips it.
bool testbed_can_run(void);

//  ---------------------------------------------------------------------------
//  Brings the testbed up: a harness_subnet for its /24 and prefix (what a
//  crashed run of the same prefix left is removed first), a temp
//  directory with the busybox images, `deploy/testbed up`, the gateway's
//  address and the superadmin's keys. 0, or -1 with the reason printed
//  (self->up says whether up ran, so that down is still owed).
int testbed_up(testbed_t *self);

//  ---------------------------------------------------------------------------
//  Runs `deploy/testbed <command> <dir>` with the testbed's settings and
//  env before them (NULL for none); its output appended to testbed.log.
//  The command's exit status.
int testbed_run(testbed_t *self, const char *env, const char *command);

//  ---------------------------------------------------------------------------
//  A signed request as the superadmin: the parsed body (NULL if none or
//  not JSON, the text printed then), the HTTP status into *status. Caller
//  owns return value.
json_t *testbed_request(
    testbed_t *self, const char *method, const char *path, const char *body, int *status);

//  ---------------------------------------------------------------------------
//  POST /manager/scheduler/operation: op with args (a JSON array's items,
//  "\"agent1\", \"agent2\""). Whether it was answered 200 or 204.
bool testbed_operation(testbed_t *self, const char *op, const char *args);

//  ---------------------------------------------------------------------------
//  DELETE /session/{name}: the HTTP status.
int testbed_destroy_session(testbed_t *self, const char *name);

//  ---------------------------------------------------------------------------
//  Creates a busybox session of 1 CPU and 128 MB (in resource group
//  sgroup, NULL: the default one) and waits for it to run: its id, its
//  first kernel and that kernel's agent (TESTBED_ID_SIZE bytes each, "" if
//  it did not run). Whether it runs.
bool testbed_session(testbed_t *self,
                     const char *name,
                     const char *sgroup,
                     char *id,
                     char *kernel,
                     char *agent);

//  ---------------------------------------------------------------------------
//  Whether session name runs `echo word` and answers with word.
bool testbed_answers(testbed_t *self, const char *name, const char *word);

//  ---------------------------------------------------------------------------
//  An agent's status and address as the admin API lists them (ALIVE, LOST
//  or TERMINATED; "" when not listed). addr may be NULL.
void testbed_agent(testbed_t *self,
                   const char *id,
                   char *status,
                   size_t status_size,
                   char *addr,
                   size_t addr_size);

//  ---------------------------------------------------------------------------
//  Waits up to within_ms for agent id to be status; false (said why) when
//  it was not.
bool
testbed_agent_becomes(testbed_t *self, const char *id, const char *status, int within_ms);

//  ---------------------------------------------------------------------------
//  Whether the gateway's /healthz names node's service up at host
//  .number's address (number 0: whether it names it at all).
bool
testbed_health_names(testbed_t *self, const char *service, const char *node, int number);

//  ---------------------------------------------------------------------------
//  How many containers named kernel (NULL: any) the agents' runc states
//  list in all.
int testbed_containers(testbed_t *self, const char *kernel);

//  ---------------------------------------------------------------------------
//  The spare networks agent ("host/service") holds: how many files its
//  net-spares/ has; each names "<address> <namespace> <veth>", and the
//  namespace is added to self->spares.
int testbed_spare_files(testbed_t *self, const char *agent);

//  ---------------------------------------------------------------------------
//  How many namespaces in /run/netns have a name that starts with prefix
//  (each printed as left when left is true: none should be).
int testbed_namespaces(const char *prefix, bool left);

//  ---------------------------------------------------------------------------
//  `down`, and what it must leave behind: nothing. The agents' spare
//  namespaces noted first; after, no namespace of the prefix, of a kernel
//  in self->kernels or among the spares, no link to the switch, no
//  container, no process under the testbed's root/, no mount under its
//  directory; every service's log and every agent's ends "stopped" with no
//  sanitizer report (the killed agent's with none); down again does
//  nothing and succeeds. How many of these failed, each printed (1 when
//  the testbed never had a directory).
int testbed_down_check(testbed_t *self);

//  ---------------------------------------------------------------------------
//  The end of a test: down if it is still up; the directory removed, or
//  kept (and said) when the test failed or BACKPLANE_KEEP is set.
void testbed_end(testbed_t *self, bool failed);

//  ---------------------------------------------------------------------------
//  A testbed test's main, expanded in the test's file (test/t.h's counters
//  are per file, so this cannot be a function here): skipped where no
//  testbed can run; test_up, then cases (a block of T_RUN statements) while
//  tb is up, test_down_leaves_nothing whatever happened, and testbed_end.
#define TESTBED_MAIN(tb, cases)                                                          \
    int main(void)                                                                       \
    {                                                                                    \
        if (!testbed_can_run())                                                          \
            return 0;                                                                    \
        T_RUN(test_up);                                                                  \
        if ((tb).up)                                                                     \
            cases T_RUN(test_down_leaves_nothing);                                       \
        testbed_end(&(tb), t_failures != 0);                                             \
        return T_DONE();                                                                 \
    }

#endif
